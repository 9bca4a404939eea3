import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../actors/runtime/shared-state/open-shared-state.ts';
import type { SharedState, StateEntry } from '../../../actors/runtime/shared-state/shared-state.ts';
import type { StateRecord } from '../../../actors/runtime/shared-state/state-record.ts';
import { updateWithRetry } from '../../../actors/runtime/shared-state/update-with-retry.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../protocol/tiers/beads.ts';

const NUM_RUNS = 250;
const ROLE = 'ARCHITECT';
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A seeded generator, so a failing run replays exactly. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

/**
 * A memory journal whose acknowledgements come late and out of order (each after a random number
 * of turns); what it stores, and in which order, is the inner journal's.
 */
function lateAckJournal(random: () => number): Journal<StateRecord> {
  const inner = createMemoryJournal<StateRecord>();
  const late = <T>(ack: Promise<T>) =>
    ack.then(async (value) => {
      for (let turns = Math.floor(random() * 4); turns > 0; turns--) await tick();
      return value;
    });
  return {
    ...inner,
    append: (partition, data) => late(inner.append(partition, data)),
    appendMany: (partition, data) => late(inner.appendMany(partition, data)),
  };
}

type Op = { kind: 'inc' } | { kind: 'append' } | { kind: 'transfer' };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'inc' as const }),
  fc.constant({ kind: 'append' as const }),
  fc.constant({ kind: 'transfer' as const }),
);
const writerArb = fc.array(fc.record({ op: opArb, delay: fc.integer({ min: 0, max: 3 }) }), {
  minLength: 1,
  maxLength: 6,
});

/** Moves 1 from task/a to task/b in one atomic write, compare-and-set on both; true once accepted. */
async function transfer(state: SharedState, random: () => number): Promise<boolean> {
  for (let attempt = 1; attempt <= 100; attempt++) {
    const [a, b] = await Promise.all([state.get('task/a'), state.get('task/b')]);
    const result = await state.write(ROLE, [
      { key: 'task/a', value: ((a?.value as number) ?? 100) - 1, expectedVersion: a?.version ?? 0 },
      { key: 'task/b', value: ((b?.value as number) ?? 0) + 1, expectedVersion: b?.version ?? 0 },
    ]);
    if (result.ok) return true;
    await new Promise((resolve) => state.clock.setTimeout(resolve, 1 + Math.floor(random() * 4)));
  }
  return false;
}

describe('shared state under concurrent writers', () => {
  it('never loses an accepted update: the final state is a serial order of the accepted writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writerArb, { minLength: 2, maxLength: 5 }),
        fc.integer(),
        fc.integer({ min: 2, max: 12 }),
        async (writers, seed, compactAfter) => {
          const random = lcg(seed);
          const clock = new SimulatedClock();
          const journal = lateAckJournal(random);
          const open = () =>
            openSharedState({
              journal,
              clock,
              schema: beadsSchema,
              scopes: { task: 't' },
              compactAfter,
              historyLimit: 2,
            });
          const watcher = open();
          const heard: StateEntry[] = [];
          watcher.watch('task/', (change) => heard.push(change));

          const accepted = { inc: 0, transfer: 0, appended: [] as string[] };
          const options = { attempts: 100, backoff: { baseMs: 1, maxMs: 8 }, random };
          const runs = writers.map(async (ops, w) => {
            const state = open(); // one view per writer, over the same journal
            for (const [i, { op, delay }] of ops.entries()) {
              if (delay > 0) await new Promise((resolve) => clock.setTimeout(resolve, delay));
              if (op.kind === 'inc') {
                await updateWithRetry(
                  state,
                  ROLE,
                  'task/counter',
                  (c: StateEntry<number> | undefined) => (c?.value ?? 0) + 1,
                  options,
                );
                accepted.inc += 1;
              } else if (op.kind === 'append') {
                const item = `${w}.${i}`;
                await updateWithRetry(
                  state,
                  ROLE,
                  'task/log',
                  (c: StateEntry<string[]> | undefined) => [...(c?.value ?? []), item],
                  options,
                );
                accepted.appended.push(item);
              } else if (await transfer(state, random)) {
                accepted.transfer += 1;
              }
            }
            await state.close();
          });
          let done = false;
          void Promise.all(runs).finally(() => (done = true));
          for (let turn = 0; !done; turn++) {
            if (turn > 20_000) throw new Error('the writers did not finish');
            await tick();
            clock.increment(1);
          }
          await Promise.all(runs);

          const final = {
            counter: (await watcher.get('task/counter'))?.value ?? 0,
            log: ((await watcher.get('task/log'))?.value as string[] | undefined) ?? [],
            a: (await watcher.get('task/a'))?.value ?? 100,
            b: (await watcher.get('task/b'))?.value ?? 0,
          };
          expect(final.counter).toBe(accepted.inc);
          expect([...final.log].sort()).toEqual([...accepted.appended].sort());
          for (let w = 0; w < writers.length; w++) {
            const mine = final.log.filter((item) => item.startsWith(`${w}.`));
            expect(mine).toEqual([...mine].sort((x, y) => Number(x.split('.')[1]) - Number(y.split('.')[1])));
          }
          expect([final.a, final.b]).toEqual([100 - accepted.transfer, accepted.transfer]);

          // Listeners heard every change once, in version order, and each counter step was +1.
          const versions = heard.map((e) => e.version);
          expect(versions).toEqual([...versions].sort((x, y) => x - y));
          const counters = heard.filter((e) => e.key === 'task/counter').map((e) => e.value);
          expect(counters).toEqual(Array.from({ length: accepted.inc }, (_, i) => i + 1));
          for (const e of heard.filter((e) => e.key === 'task/a')) expect(e.value).toBeLessThan(100);

          // A fresh read of the journal (every view closed) gives the same state.
          const expected = await watcher.list('');
          await watcher.close();
          expect(await open().list('')).toEqual(expected);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 60_000);
});
