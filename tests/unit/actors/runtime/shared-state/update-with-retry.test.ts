import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../../actors/runtime/shared-state/open-shared-state.ts';
import type { StateEntry } from '../../../../../actors/runtime/shared-state/shared-state.ts';
import { updateWithRetry } from '../../../../../actors/runtime/shared-state/update-with-retry.ts';
import { BEADS_SCHEMA as beadsSchema } from '../../../../../protocol/tiers/beads.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup() {
  const clock = new SimulatedClock();
  const state = openSharedState({
    journal: createMemoryJournal(),
    clock,
    schema: beadsSchema,
    scopes: { task: 't1', user: 'ada' },
  });
  return { clock, state };
}

describe('updateWithRetry', () => {
  it('creates an absent key (expecting version 0) and updates it from the value read', async () => {
    const { state } = setup();
    const seen: (number | undefined)[] = [];
    const inc = (current: StateEntry<number> | undefined) => {
      seen.push(current?.version);
      return (current?.value ?? 0) + 1;
    };
    expect(await updateWithRetry(state, 'ARCHITECT', 'task/count', inc)).toMatchObject({ value: 1, version: 1 });
    expect(await updateWithRetry(state, 'ARCHITECT', 'task/count', inc)).toMatchObject({ value: 2, version: 2 });
    expect(seen).toEqual([undefined, 1]);
  });

  it('backs off on the state clock after a conflict, then retries from a fresh read', async () => {
    const { clock, state } = setup();
    const seen: (number | undefined)[] = [];
    const done = updateWithRetry(
      state,
      'ARCHITECT',
      'task/count',
      (current: StateEntry<number> | undefined) => {
        seen.push(current?.value);
        // Another writer gets in between the first read and the first write.
        if (seen.length === 1) void state.write('ARCHITECT', [{ key: 'task/count', value: 10 }]);
        return (current?.value ?? 0) + 1;
      },
      { backoff: { baseMs: 50, maxMs: 50, jitter: 0 } },
    );
    await tick();
    expect(seen).toEqual([undefined]);
    clock.increment(49);
    await tick();
    expect(seen).toEqual([undefined]);
    clock.increment(1);
    expect(await done).toMatchObject({ value: 11, version: 2 });
    expect(seen).toEqual([undefined, 10]);
  });

  it('passes ttlMs to every write', async () => {
    const { state } = setup();
    const entry = await updateWithRetry(state, 'MONITOR', 'system/x', () => 'v', { ttlMs: 1_000 });
    expect(entry.expiresAt).toBe(1_000);
  });

  it('gives up after the attempts it was given, naming the key and what to do', async () => {
    const { clock, state } = setup();
    let calls = 0;
    const done = updateWithRetry(
      state,
      'ARCHITECT',
      'task/hot',
      () => {
        calls += 1;
        // Someone else always writes first.
        void state.write('ARCHITECT', [{ key: 'task/hot', value: calls }]);
        return -1;
      },
      { attempts: 3, backoff: { baseMs: 1, maxMs: 1, jitter: 0 } },
    );
    const outcome = done.catch((error: unknown) => error);
    for (let i = 0; i < 5; i++) {
      await tick();
      clock.increment(1);
    }
    expect(await outcome).toMatchObject({
      code: 'update_contended',
      message: expect.stringMatching(/Gave up updating "task\/hot" after 3 attempts.*now at version 3/),
    });
    expect(calls).toBe(3);
  });
});
