import { describe, expect, it } from 'vitest';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { DEFAULT_ADDRESSING } from '../../../../protocol/runtime/envelope-addressing.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { startAckHarness, stopAgent } from '../../../support/ack-harness.ts';
import { advance, startSupervisor, startSystem, until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';
import { TimerClock } from '../../../support/timer-clock.ts';

/* The supervisor's request timers (supervisor-requests.ts), on a clock that shows which timers are armed. */

const TIMEOUT = 5_000;
const question = () => envelope({ data_type: 'question' });
const answerTo = () => envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A journal whose every append fails. */
function brokenJournal(): Journal<RoutedRecord> {
  const fail = () => Promise.reject(new Error('disk full'));
  return { ...createMemoryJournal<RoutedRecord>(), append: fail, appendMany: fail };
}

describe('supervisor request timers', () => {
  it('arms one timer per request and cancels it when the response comes', async () => {
    const clock = new TimerClock();
    const { agent, sendAs } = startSupervisor(createMemoryJournal(), clock);
    const q = question();
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await until(agent('B'), (c) => c.received.length === 1);
    expect(clock.armed(TIMEOUT)).toBe(1);
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('A'), (c) => c.received.length === 1);
    expect(clock.armed(TIMEOUT)).toBe(0);
  });

  it('arms no timer for a plain send, a broadcast, or a request already past its expiry', async () => {
    const clock = new TimerClock();
    clock.set(10_000);
    const system = {
      ...testSystem(),
      addressing: { ...DEFAULT_ADDRESSING, expiry: 'expires_at' },
      requestTimeoutMs: TIMEOUT,
    };
    const { actor, agent, emitted, sendAs } = startSystem(system, createMemoryJournal(), clock);
    sendAs('A', { type: 'supervisor.send', envelope: envelope() });
    sendAs('A', { type: 'supervisor.publish', topic: 'news', envelope: envelope({ data_type: 'news' }) });
    sendAs('A', { type: 'supervisor.request', envelope: envelope({ data_type: 'question', expires_at: 9_000 }) });
    await until(agent('C'), (c) => c.received.length === 1);
    await until(agent('B'), (c) => c.received.length === 2);
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.expired')).toHaveLength(1);
    expect(clock.armed(TIMEOUT)).toBe(0);
    sendAs('A', { type: 'supervisor.request', envelope: question() });
    await until(agent('B'), (c) => c.received.length === 3);
    expect(clock.armed(TIMEOUT)).toBe(1);
    actor.stop();
  });

  it("times out each open request on its own: answering one leaves the other's timer running", async () => {
    const clock = new TimerClock();
    const { agent, rejected, sendAs } = startSupervisor(createMemoryJournal(), clock);
    const [first, second] = [question(), question()];
    sendAs('A', { type: 'supervisor.request', envelope: first, timeoutMs: TIMEOUT });
    sendAs('A', { type: 'supervisor.request', envelope: second, timeoutMs: TIMEOUT });
    await until(agent('B'), (c) => c.received.length === 2);
    sendAs('B', { type: 'supervisor.respond', inReplyTo: first.message_id, envelope: answerTo() });
    await until(agent('A'), (c) => c.received.length === 1);
    clock.increment(TIMEOUT);
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(agent('A').getSnapshot().context.rejected).toEqual([
      {
        type: 'supervisor.rejected',
        error: { code: 'request_timeout', message: `B did not answer request ${second.message_id} in time.` },
        requestId: second.message_id,
      },
    ]);
    clock.increment(10 * TIMEOUT);
    await tick();
    expect(rejected('A')).toHaveLength(1);
  });

  it('closes a request whose append failed: no answer is taken for it and no request_timeout follows', async () => {
    const clock = new TimerClock();
    const { actor, agent, rejected, sendAs } = startSupervisor(brokenJournal(), clock);
    const q = question();
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('journal_unavailable');
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(rejected('B')[0]!.error.code).toBe('unknown_correlation');
    // Its timer went with it.
    expect(clock.armed(TIMEOUT)).toBe(0);
    clock.increment(TIMEOUT);
    await tick();
    expect(rejected('A')).toHaveLength(1);
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('gives a request sent again after its append failed its full timeout from the second send', async () => {
    const clock = new TimerClock();
    const journal = createGatedJournal<RoutedRecord>();
    const { agent, rejected, sendAs } = startSupervisor(journal, clock);
    const q = question();
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await expect.poll(() => journal.waiting.length).toBe(1);
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    clock.increment(3_000);
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await expect.poll(() => journal.waiting.length).toBe(1);
    await journal.commit();
    await until(agent('B'), (c) => c.received.length === 1);
    clock.increment(TIMEOUT - 1);
    await tick();
    expect(rejected('A')).toHaveLength(1);
    clock.increment(1);
    await until(agent('A'), (c) => c.rejected.length === 2);
    expect(rejected('A')[1]!.error.code).toBe('request_timeout');
  });

  it('closes a request its receiver never acked once it is given up on: undeliverable, and no request_timeout after', async () => {
    const h = startAckHarness();
    stopAgent(h.child('B'));
    const q = question();
    h.sendAsA({ type: 'supervisor.request', envelope: q, timeoutMs: 60_000 });
    await h.flush();
    await advance(h.clock, 10_000);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    await advance(h.clock, 60_000, 1_000);
    expect(h.rejectedOfA().map((r) => r.error.code)).toEqual(['undeliverable']);
    expect(h.actor.getSnapshot().context.ledger.requests.size).toBe(0);
  });
});
