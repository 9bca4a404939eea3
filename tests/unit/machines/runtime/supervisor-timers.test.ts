import { describe, expect, it } from 'vitest';
import { SimulatedClock, type InspectionEvent } from 'xstate';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';
import { ackTestSystem, stopAgent } from '../../../support/ack-harness.ts';
import { advance, flush, startSystem } from '../../../support/supervisor-harness.ts';
import { envelope } from '../../../support/test-system.ts';

/*
 * The supervisor's own timers (the ack timer, request timeouts) are cancelled once nothing waits
 * on them: a timer left behind would fire into the supervisor later, for nothing. Watched through
 * XState's inspection API, as the live inspector sees the events the supervisor takes in.
 */

/** The ack test system's supervisor (restored from `journaled`, if given), every event it takes in recorded. */
function startInspected(options: Parameters<typeof ackTestSystem>[0] = {}, journaled?: readonly JournalRecord[]) {
  const { system, calls } = ackTestSystem(options);
  const clock = new SimulatedClock();
  const eventsIn: string[] = [];
  // The supervisor is the root of its actor system.
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.event' && event.actorRef.sessionId === event.rootId) eventsIn.push(event.event.type);
  };
  const input = journaled ? { journal: journaled } : {};
  const { actor, agent, sendAs } = startSystem(system, createMemoryJournal(), clock, { input, inspect });
  const sendAsA = (event: unknown) => sendAs('A', event);
  const count = (type: string) => eventsIn.filter((t) => t === type).length;
  return { actor, clock, calls, child: agent, sendAsA, flush, advance: (ms: number) => advance(clock, ms), count };
}

const question = () => envelope({ data_type: 'question', payload: { text: 'ready?' } });

describe('supervisor timers', () => {
  it('cancels the ack timer once every pending ack is in', async () => {
    const h = startInspected();
    h.sendAsA({ type: 'supervisor.send', envelope: question() });
    await h.flush();
    expect(h.count('agent.ack')).toBe(1);
    await h.advance(60_000);
    expect(h.count('supervisor.ack.due')).toBe(0);
  });

  it('moves the ack timer to the next deadline when the earliest ack comes in', async () => {
    const h = startInspected();
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() }); // keeps B busy
    h.sendAsA({ type: 'supervisor.send', envelope: question() }); // acked when B starts on it
    await h.flush();
    h.clock.increment(500);
    stopAgent(h.child('C'));
    // News for B (queued behind the question) and C (stopped): neither acks, both due at 1 500.
    h.sendAsA({ type: 'supervisor.publish', topic: 'news', envelope: envelope({ data_type: 'news' }) });
    await h.flush();
    h.calls[0]!.resolve('done'); // B starts on the question and acks it: its deadline (1 000) is gone
    await h.flush();
    await h.advance(900); // to 1 400: nothing due yet
    expect(h.count('supervisor.ack.due')).toBe(0);
    await h.advance(100); // 1 500: C's deadline
    expect(h.count('supervisor.ack.due')).toBe(1);
  });

  it('cancels the request timer of an untracked request its receiver throttled: no timeout comes in later', async () => {
    const h = startInspected({ agentInput: { maxQueued: 0, retryAfterMs: 700 }, tracked: false });
    h.sendAsA({ type: 'supervisor.send', envelope: envelope() }); // B busy, room for nothing
    h.sendAsA({ type: 'supervisor.request', envelope: question(), timeoutMs: 5_000 });
    await h.flush();
    const refusals = h.child('A').getSnapshot().context.rejected as { error: { code: string } }[];
    expect(refusals.map((r) => r.error.code)).toEqual(['throttled']);
    await h.advance(60_000);
    expect(h.count('supervisor.request.expired')).toBe(0);
  });

  it('lets the request timer of a request still open fire (what the cancellation above is measured against)', async () => {
    const h = startInspected({ tracked: false });
    h.sendAsA({ type: 'supervisor.request', envelope: question(), timeoutMs: 5_000 });
    await h.flush();
    await h.advance(5_000);
    expect(h.count('supervisor.request.expired')).toBe(1);
    const refusals = h.child('A').getSnapshot().context.rejected as { error: { code: string } }[];
    expect(refusals.map((r) => r.error.code)).toEqual(['request_timeout']);
  });

  it('does not wake for a restored give-up of a system that declares no dead letter: there is nothing to send', async () => {
    const q = question();
    const journaled: JournalRecord[] = [
      { kind: 'direct', envelope: q },
      { kind: 'ack.armed', message_id: q.message_id, receiver: 'B', attempt: 3, due_at: 3_300 },
      { kind: 'ack.undeliverable', message_id: q.message_id, receiver: 'B', attempts: 3 },
    ];
    const h = startInspected({ acks: { deadLetter: undefined } }, journaled);
    await h.advance(60_000);
    expect(h.count('supervisor.ack.due')).toBe(0);
    // Where the system declares one, the same journal wakes it once, at once, to send it.
    const declared = startInspected({}, journaled);
    declared.clock.increment(0);
    await declared.flush();
    expect(declared.count('supervisor.ack.due')).toBe(1);
    await declared.advance(60_000);
    expect(declared.count('supervisor.ack.due')).toBe(1);
  });
});
