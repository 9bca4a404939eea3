import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { AckOptions } from '../../../../machines/runtime/ack-delivery.ts';
import type { SystemDefinition } from '../../../../machines/runtime/supervisor-system.ts';
import { isRoutedRecord, type JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { ackTestSystem, stopAgent } from '../../../support/ack-harness.ts';
import { advance, flush, startSystem } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * Acknowledged delivery in systems that declare no dead letter, or no ack options at all (the
 * addressing alone asks for acks; backoff and jitter are the defaults): a give-up is journaled,
 * emitted and told to the sender, and nothing else is sent. Simulated clock.
 */

/** The ack test system with `acks` as given (`undefined`: none declared), B silenced, on a simulated clock. */
function startSilenced(acks: AckOptions | undefined, journaled?: readonly JournalRecord[]) {
  const { system: base } = ackTestSystem();
  const { acks: _declared, ...rest } = base;
  const system: SystemDefinition = acks === undefined ? rest : { ...rest, acks };
  const journal = createMemoryJournal<JournalRecord>();
  const clock = new SimulatedClock();
  const input = journaled
    ? {
        journal: journaled,
        journaledIds: journaled.flatMap((r) => (isRoutedRecord(r) ? [String(r.envelope['message_id'])] : [])),
      }
    : {};
  const { actor, emitted, agent, rejected } = startSystem(system, journal, clock, { input });
  stopAgent(agent('B'));
  const ackTrail = async () => (await journal.read('run-1')).map((e) => e.data).filter((r) => !isRoutedRecord(r));
  return {
    actor,
    emitted,
    child: agent,
    flush,
    advance: (ms: number, step?: number) => advance(clock, ms, step),
    rejectedOfA: () => rejected('A'),
    ackTrail,
  };
}

const question = () => envelope({ data_type: 'question', payload: { text: 'ready?' } });

describe('acknowledged delivery without a dead letter', () => {
  it('announces a give-up (journaled, emitted, the sender told why) and sends nothing more', async () => {
    const h = startSilenced({ backoff: { baseMs: 100, maxMs: 1_000 }, random: () => 0 });
    const q = question();
    h.child('A').send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: q } });
    await h.flush();
    await h.advance(10_000);
    expect(h.actor.getSnapshot().status).toBe('active');
    expect((await h.ackTrail()).at(-1)).toEqual({
      kind: 'ack.undeliverable',
      message_id: q.message_id,
      receiver: 'B',
      attempts: 3,
    });
    expect(h.rejectedOfA()).toEqual([
      {
        type: 'supervisor.rejected',
        error: { code: 'undeliverable', message: `B did not acknowledge message ${q.message_id} after 3 deliveries.` },
        envelope: q,
      },
    ]);
    expect(h.emitted.map((e) => e.type).filter((t) => t !== 'supervisor.routed')).toEqual(['supervisor.undeliverable']);
  });

  it('gives up with the default backoff when the system declares no ack options at all', async () => {
    const h = startSilenced(undefined);
    const q = question();
    h.child('A').send({ type: 'recorder.send', event: { type: 'supervisor.send', envelope: q } });
    await h.flush();
    // Deadlines of 1 s, backoffs of at most 1 s and 2 s (default jitter): over well within a minute.
    await h.advance(60_000, 500);
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([
      { type: 'supervisor.undeliverable', receiver: 'B', attempts: 3, partition: 'run-1', envelope: q },
    ]);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    expect(h.emitted.filter((e) => e.type === 'supervisor.outbound' || e.type === 'supervisor.rejected')).toEqual([]);
  });

  for (const [label, acks] of [
    ['no dead letter', { backoff: { baseMs: 100, maxMs: 1_000 }, random: () => 0 }],
    ['no ack options', undefined],
  ] as const) {
    it(`re-arms a restored run's pending ack, and restores a give-up without announcing it, with ${label}`, async () => {
      const pending = question();
      const gaveUp = question();
      const records: JournalRecord[] = [
        { kind: 'direct', envelope: gaveUp },
        { kind: 'ack.armed', message_id: gaveUp.message_id, receiver: 'B', attempt: 3, due_at: 3_300 },
        { kind: 'ack.undeliverable', message_id: gaveUp.message_id, receiver: 'B', attempts: 3 },
        { kind: 'direct', envelope: pending },
        { kind: 'ack.armed', message_id: pending.message_id, receiver: 'B', attempt: 3, due_at: 1_000 },
      ];
      const h = startSilenced(acks, records);
      await h.advance(60_000, 500);
      expect(h.actor.getSnapshot().status).toBe('active');
      expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([
        { type: 'supervisor.undeliverable', receiver: 'B', attempts: 3, partition: 'run-1', envelope: pending },
      ]);
      expect(h.emitted.filter((e) => e.type === 'supervisor.outbound' || e.type === 'supervisor.rejected')).toEqual([]);
      expect(await h.ackTrail()).toEqual([
        { kind: 'ack.undeliverable', message_id: pending.message_id, receiver: 'B', attempts: 3 },
      ]);
    });
  }
});
