import { describe, expect, it } from 'vitest';
import { derivedUuid } from '../../../../actors/runtime/derived-id.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { ackTestSystem, startAckHarness, stopAgent } from '../../../support/ack-harness.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { flush, startSystem, until } from '../../../support/supervisor-harness.ts';
import { envelope, type TestEnvelope } from '../../../support/test-system.ts';
import { TimerClock } from '../../../support/timer-clock.ts';

/*
 * The records that close a tracked (message id, receiver) without an ack, `ack.undeliverable` and
 * `ack.expired`: what they announce waits until they are durable, a failed append announces
 * nothing, and a restarted run replays them so nothing is announced twice. Simulated clock.
 */

const question = (expiresAt?: number) =>
  envelope({ data_type: 'question', payload: { text: 'ready?' }, ...(expiresAt ? { expires_at: expiresAt } : {}) });

/** Each append (each ack record) waits for the test: `settle` commits every waiting one. */
function gatedHarness() {
  const journal = createGatedJournal<JournalRecord>();
  const h = startAckHarness({ journal });
  const settle = async () => {
    await h.flush();
    while (journal.waiting.length > 0) {
      await journal.commit();
      await h.flush();
    }
  };
  const waitingKinds = () => journal.waiting.flatMap((w) => w.data.map((r) => r.kind));
  return { ...h, journal, settle, waitingKinds };
}

/** Runs a silenced B's question through its three deliveries, up to the give-up's append (waiting). */
async function runOutRetries(h: ReturnType<typeof gatedHarness>) {
  stopAgent(h.child('B'));
  const q = question();
  h.sendAsA({ type: 'supervisor.send', envelope: q });
  await h.settle();
  // Deadline 1 000, backoff 100, deadline 2 100, backoff 200: the third delivery.
  for (const ms of [1_000, 100, 1_000, 200]) {
    h.clock.increment(ms);
    await h.settle();
  }
  h.clock.increment(1_000); // its deadline: given up, the record on its way to the disk
  await h.flush();
  return q;
}

/**
 * Pipelined delivery on a gated journal: B gets what A sends while its append waits, and never
 * acks it. `giveUp` runs the clock through every delivery to the give-up (5 s).
 */
function pipelinedToSilentB() {
  const { system } = ackTestSystem();
  const clock = new TimerClock();
  const journal = createGatedJournal<JournalRecord>();
  const h = startSystem(
    { ...system, agents: { ...system.agents, B: recorderAgent }, delivery: 'pipelined' },
    journal,
    clock,
  );
  const giveUp = async () => {
    for (let i = 0; i < 50; i++) {
      clock.increment(100);
      await flush();
    }
  };
  return { h, clock, journal, giveUp };
}

describe('closing records of acknowledged delivery', () => {
  it('announces a give-up (event, sender told, dead letter) only once its ack.undeliverable record is durable', async () => {
    const h = gatedHarness();
    const q = await runOutRetries(h);
    expect(h.waitingKinds()).toEqual(['ack.undeliverable']);
    expect(h.count('undeliverable')).toBe(0);
    expect(h.rejectedOfA()).toEqual([]);
    expect(h.count('outbound')).toBe(0);
    await h.journal.commit();
    await h.flush();
    expect(h.count('undeliverable')).toBe(1);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    // The dead letter is admitted now, and routed once durable.
    expect(h.waitingKinds()).toEqual(['direct']);
    await h.settle();
    const outbound = h.emitted.flatMap((e) => (e.type === 'supervisor.outbound' ? [e.record.envelope] : []));
    expect(outbound).toEqual([expect.objectContaining({ message_id: derivedUuid('dead-letter', q.message_id, 'B') })]);
  });

  it('announces nothing when the give-up’s append fails, and gives up again after a backoff, announced once', async () => {
    const h = gatedHarness();
    await runOutRetries(h);
    h.journal.fail();
    await h.flush();
    expect(h.count('undeliverable')).toBe(0);
    expect(h.rejectedOfA()).toEqual([]);
    expect(h.actor.getSnapshot().context.acks?.ledger.size).toBe(1);
    // Backoff after the third delivery: 400 ms (jitter seeded to 0).
    h.clock.increment(399);
    await h.flush();
    expect(h.journal.waiting).toEqual([]);
    h.clock.increment(1);
    await h.flush();
    expect(h.waitingKinds()).toEqual(['ack.undeliverable']);
    await h.settle();
    expect(h.count('undeliverable')).toBe(1);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    expect(h.count('outbound')).toBe(1);
    expect((await h.journal.durable.read('run-1')).filter((e) => e.data.kind === 'ack.undeliverable')).toHaveLength(1);
  });

  it('announces an expiry only once its ack.expired record is durable; a failed append announces it later, once', async () => {
    const h = gatedHarness();
    stopAgent(h.child('B'));
    h.sendAsA({ type: 'supervisor.send', envelope: question(1_100) });
    await h.settle();
    h.clock.increment(1_100); // deadline 1 000, redelivery due at 1 100: past its expiry
    await h.flush();
    expect(h.waitingKinds()).toEqual(['ack.expired']);
    expect(h.count('expired')).toBe(0);
    h.journal.fail();
    await h.flush();
    expect(h.count('expired')).toBe(0);
    h.clock.increment(200); // backoff after the second delivery's deadline: 200 ms
    await h.flush();
    expect(h.waitingKinds()).toEqual(['ack.expired']);
    await h.settle();
    expect(h.count('expired')).toBe(1);
    const closing = (await h.journal.durable.read('run-1')).map((e) => e.data).filter((r) => r.kind === 'ack.expired');
    expect(closing).toEqual([expect.objectContaining({ attempt: 2, receiver: 'B' })]);
    h.clock.increment(60_000);
    await h.settle();
    expect(h.count('expired')).toBe(1);
    expect(h.count('undeliverable')).toBe(0);
  });

  it('does not announce an envelope expired again after a restart from its journal', async () => {
    const first = startAckHarness();
    stopAgent(first.child('B'));
    first.sendAsA({ type: 'supervisor.send', envelope: question(1_100) });
    await first.flush();
    first.clock.increment(1_100);
    await first.flush();
    expect(first.count('expired')).toBe(1);
    first.actor.stop();
    const records = (await first.journal.read('run-1')).map((e) => e.data);
    const second = startAckHarness({ journaled: records });
    stopAgent(second.child('B'));
    for (let i = 0; i < 40; i++) {
      second.clock.increment(100);
      await second.flush();
    }
    expect(second.count('expired')).toBe(0);
    expect(second.count('undeliverable')).toBe(0);
    expect(second.calls).toEqual([]);
    expect(await second.ackTrail()).toEqual([]);
  });

  it('sends a give-up’s dead letter after a restart if the journal holds the give-up but not the dead letter, once', async () => {
    const first = gatedHarness();
    const q = await runOutRetries(first);
    // The process dies right after the give-up is durable: its dead letter's append never happens.
    expect(first.waitingKinds()).toEqual(['ack.undeliverable']);
    await first.journal.commit();
    first.actor.stop();
    const records = (await first.journal.durable.read('run-1')).map((e) => e.data);
    expect(records.map((r) => r.kind).at(-1)).toBe('ack.undeliverable');
    const journal = createMemoryJournal<JournalRecord>();
    const second = startAckHarness({ journal, journaled: records });
    second.clock.increment(0);
    await second.flush();
    const deadLetterId = derivedUuid('dead-letter', q.message_id, 'B');
    const outbound = second.emitted.flatMap((e) => (e.type === 'supervisor.outbound' ? [e.record.envelope] : []));
    expect(outbound.map((e) => (e as { message_id: string }).message_id)).toEqual([deadLetterId]);
    // Its event and the sender's notice may have gone out before the crash: not made again.
    expect(second.count('undeliverable')).toBe(0);
    expect(second.rejectedOfA()).toEqual([]);
    // The give-up is not journaled again; the dead letter is.
    expect((await journal.read('run-1')).map((e) => e.data.kind)).toEqual(['direct']);
    // Restarted once more, with the dead letter in the journal: nothing is replayed.
    const third = startAckHarness({ journaled: [...records, ...(await journal.read('run-1')).map((e) => e.data)] });
    third.clock.increment(60_000);
    await third.flush();
    expect(third.count('outbound')).toBe(0);
    expect(third.count('undeliverable')).toBe(0);
  });

  it('closes the acks of an envelope that expired while its delivery waited for the disk, so a restart announces nothing', async () => {
    const first = gatedHarness();
    const q = question(500);
    first.sendAsA({ type: 'supervisor.send', envelope: q });
    await first.flush();
    first.clock.increment(500); // the append is still on its way: delivered now, it is past its expiry
    await first.settle();
    expect(first.calls).toEqual([]);
    expect(first.count('expired')).toBe(1);
    const records = (await first.journal.durable.read('run-1')).map((e) => e.data);
    expect(records.filter((r) => r.kind.startsWith('ack.'))).toEqual([
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 1, due_at: 1_000 },
      { kind: 'ack.expired', message_id: q.message_id, receiver: 'B', attempt: 1 },
    ]);
    first.actor.stop();
    const second = startAckHarness({ journaled: records });
    second.clock.set(500);
    for (let i = 0; i < 40; i++) {
      second.clock.increment(100);
      await second.flush();
    }
    expect(second.count('expired')).toBe(0);
    expect(second.calls).toEqual([]);
  });

  it('announces no give-up of an early delivery whose own append then failed: its sender hears only that', async () => {
    const { h, journal, giveUp } = pipelinedToSilentB();
    const lost = question();
    const kept = { ...question(), run_id: 'run-2' };
    h.sendAs('A', { type: 'supervisor.send', envelope: lost });
    h.sendAs('A', { type: 'supervisor.send', envelope: kept });
    await until(h.agent('B'), (c) => c.received.length === 2);
    await giveUp();
    // Both given up on, each ack.undeliverable waiting behind its question's append.
    const kinds = journal.waiting.flatMap((w) => w.data.map((r) => r.kind));
    expect(kinds.filter((kind) => kind === 'ack.undeliverable')).toHaveLength(2);
    expect(h.rejected('A')).toEqual([]);
    journal.fail('disk full', 'run-1');
    await flush();
    while (journal.waiting.length > 0) {
      await journal.commit();
      await flush();
    }
    // The lost one is told as lost only; the other one's give-up is announced.
    const idOf = (told: object) => (told as { envelope?: TestEnvelope }).envelope?.message_id;
    expect(h.rejected('A').map((r) => [r.error.code, idOf(r)])).toEqual([
      ['journal_unavailable', lost.message_id],
      ['undeliverable', kept.message_id],
    ]);
    const announced = h.emitted.filter((e) => e.type === 'supervisor.undeliverable');
    expect(announced.map(idOf)).toEqual([kept.message_id]);
    expect(h.actor.getSnapshot().context.acks?.closing).toBe(0);
  });

  it('announces no give-up of a revoked delivery whose failure came back in an earlier batch of acks than its turn', async () => {
    const { h, journal, giveUp } = pipelinedToSilentB();
    // More notes ahead of it than the writer reports in one event (256 acks): the question's turn
    // comes in a later batch than the one that carries its give-up's outcome.
    const notes = 300;
    for (let i = 0; i < notes; i++) h.sendAs('A', { type: 'supervisor.send', envelope: envelope({ run_id: 'run-2' }) });
    const lost = question();
    h.sendAs('A', { type: 'supervisor.send', envelope: lost });
    await until(h.agent('B'), (c) => c.received.length === notes + 1);
    await giveUp();
    const onRun1 = journal.waiting.filter((w) => w.partition === 'run-1').flatMap((w) => w.data.map((r) => r.kind));
    expect(onRun1).toContain('ack.undeliverable');
    journal.fail('disk full', 'run-1');
    while (journal.waiting.some((w) => w.partition === 'run-1')) await journal.commit('run-1');
    while (journal.waiting.length > 0) await journal.commit('run-2');
    await until(h.agent('A'), (c) => c.rejected.length === 1);
    await flush();
    expect(h.rejected('A').map((r) => r.error.code)).toEqual(['journal_unavailable']);
    expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toEqual([]);
  });
});
