import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import { createSupervisorMachine } from '../../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../support/gated-journal.ts';
import { envelope, testSystem, type TestEnvelope } from '../../support/test-system.ts';

/*
 * The durable hot path against a model, over random bursts of sends (valid, invalid, repeated
 * ids, two partitions, two senders) and journal commits and failures in any order: every
 * envelope is validated and deduplicated, journaled verbatim in its partition, and delivered only
 * once every append of its burst is settled and it is durable, in routing order; a failed append
 * is refused to its sender and its id may be sent again.
 */

const NUM_RUNS = 200;
const tick = () => new Promise((resolve) => setImmediate(resolve));

type Send = { variant: 'fresh' | 'invalid' | 'repeat'; from: 'A' | 'C'; run: 'run-1' | 'run-2'; pick: number };
type Op = { kind: 'burst'; sends: Send[] } | { kind: 'commit' } | { kind: 'fail' };

const sendArb: fc.Arbitrary<Send> = fc.record({
  variant: fc.constantFrom<Send['variant']>('fresh', 'fresh', 'fresh', 'invalid', 'repeat'),
  from: fc.constantFrom<Send['from']>('A', 'C'),
  run: fc.constantFrom<Send['run']>('run-1', 'run-2'),
  pick: fc.nat(),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      sends: fc.array(sendArb, { minLength: 1, maxLength: 6 }),
    }),
  },
  { weight: 3, arbitrary: fc.constant<Op>({ kind: 'commit' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'fail' }) },
);

/** One admitted envelope, as the model sees it. */
interface Admission {
  envelope: TestEnvelope;
  burst: number;
  outcome?: 'durable' | 'failed';
}

async function run(ops: Op[]) {
  const journal = createGatedJournal<RoutedRecord>();
  const actor = createActor(createSupervisorMachine(testSystem(), { journal }), { input: {} }).start();
  const agent = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  const receivedIds = (): string[] =>
    agent('B')
      .getSnapshot()
      .context.received.map((d: { input: { envelope: { message_id: string } } }) => d.input.envelope.message_id);
  const rejectionsOf = (name: string): string[] =>
    agent(name)
      .getSnapshot()
      .context.rejected.map((r: { error: { code: string } }) => r.error.code)
      .sort();

  const admissions: Admission[] = [];
  const sentIds: string[] = [];
  const expectedRejections: Record<'A' | 'C', string[]> = { A: [], C: [] };
  /** The appends waiting in the gated journal, oldest first, with the burst that issued them. */
  const calls: { burst: number; ids: string[]; outcome?: 'durable' | 'failed' }[] = [];
  const outstanding: typeof calls = [];
  let bursts = 0;
  /** Bursts whose every append is settled, and every burst before them: the supervisor knows how they went. */
  const settledBursts = () => {
    let n = 0;
    while (n < bursts && calls.filter((c) => c.burst === n).every((c) => c.outcome)) n++;
    return n;
  };
  const known = (a: Admission) => a.burst < settledBursts();
  const remembered = (id: string) =>
    admissions.some((a) => a.envelope.message_id === id && !(a.outcome === 'failed' && known(a)));
  const settle = async (outcome: 'durable' | 'failed') => {
    const call = outstanding.shift();
    if (!call) return;
    call.outcome = outcome;
    for (const a of admissions)
      if (a.burst === call.burst && call.ids.includes(a.envelope.message_id)) a.outcome = outcome;
    if (outcome === 'durable') await journal.commit();
    else journal.fail();
  };
  const check = async () => {
    // Delivered: what is known durable, in routing order, and every one of them on "disk".
    const durable = new Set(
      [...(await journal.durable.read('run-1')), ...(await journal.durable.read('run-2'))].map(
        (e) => e.data.envelope.message_id,
      ),
    );
    expect(receivedIds()).toEqual(
      admissions.filter((a) => known(a) && a.outcome === 'durable').map((a) => a.envelope.message_id),
    );
    for (const id of receivedIds()) expect(durable.has(id)).toBe(true);
  };

  for (const op of ops) {
    if (op.kind === 'burst') {
      for (const send of op.sends) {
        const repeated =
          send.variant === 'repeat' && sentIds.length > 0 ? sentIds[send.pick % sentIds.length] : undefined;
        const e = envelope({
          from_agent: send.from,
          run_id: send.run,
          payload: { text: send.variant, n: sentIds.length },
          ...(repeated ? { message_id: repeated } : {}),
        });
        if (send.variant === 'invalid') {
          expectedRejections[send.from].push('invalid_envelope');
          actor.send({ type: 'supervisor.send', envelope: { ...e, payload: { text: 42 } } });
          continue;
        }
        if (remembered(e.message_id)) expectedRejections[send.from].push('duplicate_message');
        else admissions.push({ envelope: e, burst: bursts });
        if (!repeated) sentIds.push(e.message_id);
        actor.send({ type: 'supervisor.send', envelope: e });
      }
      await tick();
      for (const waiting of journal.waiting.slice(outstanding.length)) {
        const call = { burst: bursts, ids: waiting.data.map((r) => r.envelope.message_id as string) };
        calls.push(call);
        outstanding.push(call);
      }
      if (admissions.some((a) => a.burst === bursts)) bursts++;
    } else {
      await settle(op.kind === 'commit' ? 'durable' : 'failed');
      await tick();
    }
    await check();
  }
  while (outstanding.length > 0) {
    await settle('durable');
    await tick();
  }
  await check();

  // Journaled verbatim, each partition in routing order; refusals told to their senders.
  for (const partition of ['run-1', 'run-2']) {
    expect((await journal.durable.read(partition)).map((entry) => entry.data)).toEqual(
      admissions
        .filter((a) => a.outcome === 'durable' && a.envelope.run_id === partition)
        .map((a) => ({ kind: 'direct', envelope: a.envelope })),
    );
  }
  for (const a of admissions)
    if (a.outcome === 'failed') expectedRejections[a.envelope.from_agent as 'A' | 'C'].push('journal_unavailable');
  expect(rejectionsOf('A')).toEqual(expectedRejections.A.sort());
  expect(rejectionsOf('C')).toEqual(expectedRejections.C.sort());
  expect(actor.getSnapshot().context.ledger.idle()).toBe(true);
  actor.stop();
}

describe('supervisor with durable delivery (property)', () => {
  it('validates, deduplicates, journals verbatim and delivers only what is durable, in routing order', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 30 }), run), { numRuns: NUM_RUNS });
  });
});
