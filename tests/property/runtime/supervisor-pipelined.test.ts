import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef } from 'xstate';
import {
  createSupervisorMachine,
  routedRecordsOf,
  type SupervisorEmitted,
} from '../../../machines/runtime/supervisor.ts';
import type { DeliveredMessage, RoutedRecord } from '../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../support/gated-journal.ts';
import { envelope, testSystem, type TestEnvelope } from '../../support/test-system.ts';

/*
 * The output-commit rule of pipelined delivery, over random interleavings of sends, journal
 * commits and journal failures: whatever an agent sends reaches the journal only after every
 * envelope it was working from, and never if one of those could not be stored; each sender's
 * order holds; nothing leaves for an external address, or is reported routed, before it is
 * durable. The agents play by the contract: once told to cancel a request, they no longer work
 * from it.
 */

const NUM_RUNS = 200;
const tick = () => new Promise((resolve) => setImmediate(resolve));

type Op = { kind: 'send'; from: 'A' | 'B'; to: 'A' | 'B' | 'USER' } | { kind: 'commit' } | { kind: 'fail' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom<Op>(
      { kind: 'send', from: 'A', to: 'B' },
      { kind: 'send', from: 'B', to: 'A' },
      { kind: 'send', from: 'B', to: 'USER' },
    ),
  },
  { weight: 3, arbitrary: fc.constant<Op>({ kind: 'commit' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'fail' }) },
);

async function run(ops: Op[]) {
  const journal = createGatedJournal<RoutedRecord>();
  const actor = createActor(createSupervisorMachine({ ...testSystem(), delivery: 'pipelined' }, { journal }), {
    input: {},
  });
  const emitted: SupervisorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event as SupervisorEmitted));
  actor.start();
  const agent = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
  /** What an agent works from: every envelope delivered to it, but those it was told to cancel. */
  const workingFrom = (name: string): string[] => {
    const { received, cancelled } = agent(name).getSnapshot().context;
    const dropped = new Set(cancelled.map((c: { requestId: string }) => c.requestId));
    return received
      .map((d: { input: DeliveredMessage }) => d.input.envelope.message_id)
      .filter((id: string) => !dropped.has(id));
  };
  /** For each envelope sent: who sent it, in which order, and what its sender worked from. */
  const sent = new Map<string, { from: string; order: number; causes: string[] }>();
  for (const op of ops) {
    if (op.kind === 'send') {
      const e: TestEnvelope = envelope({ from_agent: op.from, to_agent: op.to, payload: { text: 'x', n: sent.size } });
      sent.set(e.message_id, { from: op.from, order: sent.size, causes: workingFrom(op.from) });
      agent(op.from).send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: e } });
    } else if (journal.waiting.length > 0) {
      if (op.kind === 'commit') await journal.commit();
      else journal.fail();
    }
    await tick();
  }
  while (journal.waiting.length > 0) {
    await journal.commit();
    await tick();
  }
  const journaled = (await journal.durable.read('run-1')).map((entry) => entry.data.envelope.message_id as string);
  const position = new Map(journaled.map((id, index) => [id, index]));
  for (const [id, index] of position) {
    for (const cause of sent.get(id)!.causes) {
      // The cause is in the journal, before the envelope it led to.
      expect(position.get(cause)).toBeLessThan(index);
    }
  }
  for (const from of ['A', 'B']) {
    const orders = journaled.filter((id) => sent.get(id)!.from === from).map((id) => sent.get(id)!.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  }
  const routedIds = emitted.flatMap(routedRecordsOf).map((record) => record.envelope.message_id);
  expect(routedIds).toEqual(journaled);
  expect(actor.getSnapshot().context.ledger.idle()).toBe(true);
  // Every envelope sent was either journaled or refused to its sender, never lost without a word.
  const refused = ['A', 'B'].flatMap((name) =>
    agent(name)
      .getSnapshot()
      .context.rejected.map((r: { envelope: { message_id: string } }) => r.envelope.message_id),
  );
  expect(new Set([...journaled, ...refused])).toEqual(new Set(sent.keys()));
  actor.stop();
}

describe('supervisor with pipelined delivery (property)', () => {
  it('journals what an agent sends only after what it had received, and never after a failed one', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), run), { numRuns: NUM_RUNS });
  });
});
