import { describe, expect, it } from 'vitest';
import { DEFAULT_ADDRESSING } from '../../../../protocol/runtime/envelope-addressing.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { orgMessage, orgTestSystem } from '../../../support/org/org-test-system.ts';
import { createGatedJournal } from '../../../support/gated-journal.ts';
import { flush, startSupervisor, startSystem, until } from '../../../support/supervisor-harness.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';
import { TimerClock } from '../../../support/timer-clock.ts';

/* A request stays open until an answer to it is durable (open-requests.ts): an answer that fails reopens it. */

const TIMEOUT = 5_000;
const question = () => envelope({ data_type: 'question' });
const answerTo = () => envelope({ from_agent: 'B', to_agent: 'A', data_type: 'answer' });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
/** What B reports of its work on `requestId`. */
const report = (requestId: string, outcome: object) => ({
  type: 'agent.report',
  agent: 'B',
  requestId,
  attempts: 1,
  outcome,
});

interface AskOptions {
  delivery?: 'durable' | 'pipelined';
  expiry?: boolean;
  /** The request's own `expires_at` (with `expiry`). */
  expiresAt?: number;
}

/**
 * A supervisor on a gated journal and a clock at 10 000 ms (durable delivery and no expiry unless
 * told), with request `q` from A to B sent, its append waiting on the journal.
 */
async function asked(options: AskOptions = {}) {
  const clock = new TimerClock();
  clock.set(10_000);
  const journal = createGatedJournal<RoutedRecord>();
  const system = {
    ...testSystem(),
    delivery: options.delivery ?? 'durable',
    ...(options.expiry ? { addressing: { ...DEFAULT_ADDRESSING, expiry: 'expires_at' } } : {}),
  };
  const harness = startSystem(system, journal, clock);
  const q = options.expiresAt === undefined ? question() : { ...question(), expires_at: options.expiresAt };
  harness.sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
  await expect.poll(() => journal.waiting.length).toBe(1);
  return { ...harness, clock, journal, q };
}

/** As `asked`, with request `q` already durable and delivered. */
async function askedAndDelivered(options: AskOptions = {}) {
  const asking = await asked(options);
  const { journal, q, clock, ...harness } = asking;
  await journal.commit();
  await until(harness.agent('B'), (c) => c.received.length === 1);
  /** B answers `q`; resolves once the answer's append waits on the journal. */
  const answer = async (sent = answerTo()) => {
    harness.sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: sent });
    await expect.poll(() => journal.waiting.length).toBe(1);
    return sent;
  };
  /** B answers `q` (again) and it is journaled: A gets it, and the request's timer is gone. */
  const answeredAgain = async (sent = answerTo()) => {
    const before = harness.received('A').length;
    await answer(sent);
    await journal.commit();
    await until(harness.agent('A'), (c) => c.received.length === before + 1);
    await flush();
    expect(harness.received('A').at(-1)!.input).toEqual(sent);
    expect(clock.armed(TIMEOUT)).toBe(0);
  };
  return { ...harness, clock, journal, q, answer, answeredAgain };
}

describe('supervisor: an answer that fails', () => {
  it('keeps its request open: the answer sent again reaches the requester, and the timer stops then', async () => {
    const { agent, rejected, received, clock, journal, q, answer, answeredAgain } = await askedAndDelivered();
    await answer();
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(rejected('B')[0]!.error.code).toBe('journal_unavailable');
    expect(clock.armed(TIMEOUT)).toBe(1);
    await answeredAgain();
    expect(received('A')[0]!.delivery).toEqual({ kind: 'response', correlationId: q.message_id });
    expect(rejected('B')).toHaveLength(1);
    expect(rejected('A')).toHaveLength(0);
  });

  it('keeps its timer running: with no answer again, the requester hears request_timeout', async () => {
    const { agent, rejected, clock, journal, q, answer } = await askedAndDelivered();
    await answer();
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 1);
    clock.increment(TIMEOUT);
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({
      error: { code: 'request_timeout', message: `B did not answer request ${q.message_id} in time.` },
      requestId: q.message_id,
    });
  });

  it('makes a timeout that fired while it was being journaled count: the requester hears it once the answer fails', async () => {
    const { agent, rejected, clock, journal, q, answer, sendAs } = await askedAndDelivered();
    await answer();
    clock.increment(TIMEOUT);
    await tick();
    expect(rejected('A')).toHaveLength(0);
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
    // Closed now: a late answer has nothing to answer.
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('B'), (c) => c.rejected.length === 2);
    expect(rejected('B').map((r) => r.error.code)).toEqual(['journal_unavailable', 'unknown_correlation']);
  });
  it('is accepted again under the same message id once its failure is known', async () => {
    const { agent, rejected, journal, answer, answeredAgain } = await askedAndDelivered();
    const a = await answer();
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 1);
    await answeredAgain(a);
    expect(rejected('B')).toHaveLength(1);
  });

  it("reopens its request also when it was a worker's output answering it", async () => {
    const { agent, rejected, clock, journal, q, sendAs, answeredAgain } = await askedAndDelivered();
    sendAs('B', report(q.message_id, { status: 'completed', output: answerTo() }));
    await expect.poll(() => journal.waiting.length).toBe(1);
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(clock.armed(TIMEOUT)).toBe(1);
    await answeredAgain();
    expect(rejected('A')).toHaveLength(0);
  });

  it('under pipelined delivery, is revoked from the requester, which may then get an answer sent again', async () => {
    const { agent, rejected, clock, journal, answer, answeredAgain } = await askedAndDelivered({
      delivery: 'pipelined',
    });
    const first = await answer();
    expect(agent('A').getSnapshot().context.received).toHaveLength(1);
    journal.fail();
    await until(agent('A'), (c) => c.cancelled.length === 1);
    expect(agent('A').getSnapshot().context.cancelled[0]).toMatchObject({ requestId: first.message_id });
    expect(clock.armed(TIMEOUT)).toBe(1);
    await answeredAgain();
    expect(rejected('A')).toHaveLength(0);
  });

  it('under pipelined delivery, after a timeout that fired meanwhile: the requester hears the revocation, then request_timeout', async () => {
    const { agent, rejected, clock, journal, q, sendAs } = await askedAndDelivered({ delivery: 'pipelined' });
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('A'), (c) => c.received.length === 1);
    clock.increment(TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(0);
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
    expect(agent('A').getSnapshot().context.cancelled).toHaveLength(1);
  });

  it('under pipelined delivery, is revoked before the requester hears request_timeout, also when its failure comes back before its turn', async () => {
    const { agent, rejected, clock, journal, q, sendAs } = await askedAndDelivered({ delivery: 'pipelined' });
    const toUser = (run_id: string) => envelope({ from_agent: 'B', to_agent: 'USER', run_id });
    sendAs('B', { type: 'supervisor.send', envelope: toUser('run-8') });
    await expect.poll(() => journal.waiting.length).toBe(1);
    sendAs('B', { type: 'supervisor.send', envelope: toUser('run-9') });
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('A'), (c) => c.received.length === 1);
    await expect.poll(() => journal.waiting.length).toBe(3);
    clock.increment(TIMEOUT);
    journal.fail('disk full', 'run-1');
    await flush();
    await journal.commit('run-8');
    await flush();
    // Not its turn yet (the note on run-9 before it waits): nobody is told anything.
    expect(rejected('A')).toHaveLength(0);
    expect(agent('A').getSnapshot().context.cancelled).toHaveLength(0);
    await journal.commit('run-9');
    const told = await until(agent('A'), (c) => c.rejected.length === 1);
    expect(told.context.cancelled).toHaveLength(1);
    expect(rejected('A')[0]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
  });
});

describe('supervisor: a request whose append failed', () => {
  it('keeps a timer when it is sent again before its turn in routing order came', async () => {
    const clock = new TimerClock();
    const journal = createGatedJournal<RoutedRecord>();
    const { actor, agent, rejected, sendAs } = startSupervisor(journal, clock);
    // An earlier outbox, then a note on run-3 and the request on run-2 in the next one.
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ run_id: 'run-1' }) });
    await expect.poll(() => journal.waiting.length).toBe(1);
    const q = envelope({ data_type: 'question', run_id: 'run-2' });
    sendAs('A', { type: 'supervisor.send', envelope: envelope({ run_id: 'run-3' }) });
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await expect.poll(() => journal.waiting.length).toBe(3);
    // Its failure comes back with the first outbox's ack, while the note before it still waits.
    journal.fail('disk full', 'run-2');
    await flush();
    await journal.commit('run-1');
    await flush();
    expect(rejected('A')).toHaveLength(0);
    sendAs('A', { type: 'supervisor.request', envelope: q, timeoutMs: TIMEOUT });
    await expect.poll(() => journal.waiting.length).toBe(2);
    await journal.commit('run-3');
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('journal_unavailable');
    await journal.commit('run-2');
    await until(agent('B'), (c) => c.received.length === 2);
    expect(clock.armed(TIMEOUT)).toBe(1);
    clock.increment(TIMEOUT);
    await until(agent('A'), (c) => c.rejected.length === 2);
    expect(rejected('A')[1]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
    expect(actor.getSnapshot().context.ledger.requests.size).toBe(0);
  });
});

describe('supervisor: an answer being journaled', () => {
  it('wins over a timeout that fires meanwhile once it is durable: the requester gets it and no request_timeout', async () => {
    const { agent, rejected, clock, journal, answer } = await askedAndDelivered();
    const a = await answer();
    // Held, not closed: its timer still runs.
    expect(clock.armed(TIMEOUT)).toBe(1);
    clock.increment(TIMEOUT);
    await tick();
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 1);
    expect(agent('A').getSnapshot().context.received[0].input.envelope).toEqual(a);
    clock.increment(10 * TIMEOUT);
    await tick();
    expect(rejected('A')).toHaveLength(0);
  });

  it('holds its request: a second answer meanwhile is refused unknown_correlation, the first is delivered', async () => {
    const { agent, rejected, journal, q, answer, sendAs } = await askedAndDelivered();
    const first = await answer();
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(rejected('B')[0]!.error).toEqual({
      code: 'unknown_correlation',
      message: `No open request ${q.message_id} from A to answer.`,
    });
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 1);
    expect(agent('A').getSnapshot().context.received[0].input.envelope).toEqual(first);
  });

  it('holds its request against a plain send naming it: that one is routed as a plain send', async () => {
    const journal = createGatedJournal<RoutedRecord>();
    const { agent, received, sendAs } = startSystem(orgTestSystem(), journal);
    const request = orgMessage();
    sendAs('product', { type: 'supervisor.request', envelope: request });
    await expect.poll(() => journal.waiting.length).toBe(1);
    await journal.commit();
    await until(agent('backend'), (c) => c.received.length === 1);
    const answer = () =>
      orgMessage({
        source_agent: 'backend',
        destination_agent: 'product',
        message_type: 'response',
        context: { sprint_id: 'sprint-7', related_messages: [request.message_id] },
      });
    sendAs('backend', { type: 'supervisor.send', envelope: answer() });
    sendAs('backend', { type: 'supervisor.send', envelope: answer() });
    await expect.poll(() => journal.waiting.length).toBe(1);
    await journal.commit();
    await until(agent('product'), (c) => c.received.length === 2);
    expect(received('product').map((d) => d.delivery)).toEqual([
      { kind: 'response', correlationId: request.message_id },
      { kind: 'direct' },
    ]);
  });

  it('leaves a throttle of its request to the answer: the requester is not told throttled and gets the answer', async () => {
    const { agent, received, rejected, clock, journal, q, sendAs, answer } = await askedAndDelivered();
    const a = await answer();
    sendAs('B', report(q.message_id, { status: 'throttled', retryAfterMs: 100 }));
    await flush();
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 1);
    expect(received('A')[0]!.input).toEqual(a);
    expect(rejected('A')).toHaveLength(0);
    expect(clock.armed(TIMEOUT)).toBe(0);
  });

  it('leaves the request its timer when the throttle came while an answer that then fails was held', async () => {
    const { agent, rejected, clock, journal, q, sendAs, answer } = await askedAndDelivered();
    await answer();
    sendAs('B', report(q.message_id, { status: 'throttled', retryAfterMs: 100 }));
    await flush();
    journal.fail();
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(clock.armed(TIMEOUT)).toBe(1);
    clock.increment(TIMEOUT);
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
  });

  it("holds its request against a worker's output addressed to the requester: that one goes as a plain send", async () => {
    const { agent, received, journal, q, sendAs, answer } = await askedAndDelivered();
    await answer();
    const output = answerTo();
    sendAs('B', report(q.message_id, { status: 'completed', output }));
    await expect.poll(() => journal.waiting.length).toBe(2);
    await journal.commit();
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 2);
    expect(received('A').map((d) => d.delivery)).toEqual([
      { kind: 'response', correlationId: q.message_id },
      { kind: 'direct' },
    ]);
    expect(received('A')[1]!.input).toEqual(output);
  });
});

describe('supervisor: an answer that expires while it waits for the disk', () => {
  it('is not delivered, and leaves its request open for an answer sent again', async () => {
    const { emitted, received, rejected, clock, journal, answer, answeredAgain } = await askedAndDelivered({
      expiry: true,
    });
    await answer({ ...answerTo(), expires_at: 10_500 });
    clock.increment(1_000);
    await journal.commit();
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.expired')).toHaveLength(1);
    expect(received('A')).toHaveLength(0);
    await answeredAgain();
    expect(rejected('B')).toHaveLength(0);
  });

  it("tells the requester request_timeout at its turn when the request's timer fired while it waited", async () => {
    const { agent, received, rejected, clock, journal, q, answer } = await askedAndDelivered({ expiry: true });
    await answer({ ...answerTo(), expires_at: 12_000 });
    clock.increment(TIMEOUT);
    await tick();
    expect(rejected('A')).toHaveLength(0);
    await journal.commit();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({ error: { code: 'request_timeout' }, requestId: q.message_id });
    expect(received('A')).toHaveLength(0);
  });
});

describe('supervisor: a request being journaled when its timer fires', () => {
  it('tells its requester only journal_unavailable if its append then fails', async () => {
    const { agent, actor, rejected, received, clock, journal } = await asked();
    clock.increment(TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(0);
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]!.error.code).toBe('journal_unavailable');
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(1);
    expect(received('B')).toHaveLength(0);
    expect(actor.getSnapshot().context.ledger.requests.size).toBe(0);
  });

  it('delivers it once it is durable, then tells its requester request_timeout; an answer is refused', async () => {
    const { agent, actor, rejected, received, clock, journal, q, sendAs } = await asked();
    clock.increment(TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(0);
    await journal.commit();
    const told = await until(agent('A'), (c) => c.rejected.length === 1);
    expect(received('B').map((d) => d.input)).toEqual([q]);
    expect(told.context.rejected[0]).toMatchObject({
      error: { code: 'request_timeout', message: `B did not answer request ${q.message_id} in time.` },
      requestId: q.message_id,
    });
    expect(actor.getSnapshot().context.ledger.requests.size).toBe(0);
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await until(agent('B'), (c) => c.rejected.length === 1);
    expect(rejected('B')[0]!.error.code).toBe('unknown_correlation');
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(1);
  });

  it('tells its requester after the request was delivered and announced', async () => {
    const { agent, emitted, clock, journal } = await asked();
    clock.increment(TIMEOUT);
    await flush();
    await journal.commit();
    await until(agent('A'), (c) => c.rejected.length === 1);
    await flush();
    const heard = emitted.filter((e) => e.type === 'supervisor.routed' || e.type === 'supervisor.rejected');
    expect(heard.map((e) => e.type)).toEqual(['supervisor.routed', 'supervisor.rejected']);
  });

  it('leaves it to an answer admitted while the request was being journaled: durable, the requester gets only the answer', async () => {
    const { agent, received, rejected, clock, journal, q, sendAs } = await asked();
    // B knows the id before the request reaches it (a host answering for it, say).
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await expect.poll(() => journal.waiting.length).toBe(2);
    clock.increment(TIMEOUT);
    await flush();
    await journal.commit();
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 1);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(received('A')[0]!.delivery).toEqual({ kind: 'response', correlationId: q.message_id });
    expect(rejected('A')).toHaveLength(0);
  });

  it('leaves it to an answer admitted while the request was being journaled: failed, the requester hears request_timeout once', async () => {
    const { agent, rejected, clock, journal, q, sendAs } = await asked();
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await expect.poll(() => journal.waiting.length).toBe(2);
    clock.increment(TIMEOUT);
    await flush();
    await journal.commit();
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A').map((r) => r.error.code)).toEqual(['request_timeout']);
    expect(rejected('B').map((r) => r.error.code)).toEqual(['journal_unavailable']);
  });

  it('under pipelined delivery, once durable: the requester hears request_timeout, the receiver’s held answer is refused', async () => {
    const { agent, received, rejected, clock, journal, q, sendAs } = await asked({ delivery: 'pipelined' });
    await until(agent('B'), (c) => c.received.length === 1);
    // Held by the output-commit rule until the request is durable.
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await flush();
    clock.increment(TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(0);
    await journal.commit();
    await until(agent('B'), (c) => c.rejected.length === 1);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A').map((r) => r.error.code)).toEqual(['request_timeout']);
    expect(rejected('B').map((r) => r.error.code)).toEqual(['unknown_correlation']);
    expect(received('A')).toHaveLength(0);
  });

  it('under pipelined delivery, revokes it from its receiver and tells its requester only journal_unavailable if its append fails', async () => {
    const { agent, rejected, clock, journal } = await asked({ delivery: 'pipelined' });
    await until(agent('B'), (c) => c.received.length === 1);
    clock.increment(TIMEOUT);
    await flush();
    journal.fail();
    await until(agent('B'), (c) => c.cancelled.length === 1);
    await until(agent('A'), (c) => c.rejected.length === 1);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A').map((r) => r.error.code)).toEqual(['journal_unavailable']);
  });
});

describe('supervisor: a request that expires while it waits for the disk', () => {
  it('is closed at its turn: its requester hears it at once, and its timer is gone', async () => {
    const { agent, actor, emitted, rejected, received, clock, journal, q } = await asked({
      expiry: true,
      expiresAt: 10_500,
    });
    expect(clock.armed(TIMEOUT)).toBe(1);
    clock.increment(1_000);
    await journal.commit();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(rejected('A')[0]).toMatchObject({
      error: {
        code: 'request_timeout',
        message: `Request ${q.message_id} to B expired before it could be delivered.`,
      },
      requestId: q.message_id,
    });
    expect(emitted.filter((e) => e.type === 'supervisor.expired')).toHaveLength(1);
    expect(received('B')).toHaveLength(0);
    expect(clock.armed(TIMEOUT)).toBe(0);
    expect(actor.getSnapshot().context.ledger.requests.size).toBe(0);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(1);
  });

  it('leaves it to an answer admitted meanwhile: durable, the requester gets only the answer', async () => {
    const { agent, received, rejected, clock, journal, q, sendAs } = await asked({ expiry: true, expiresAt: 10_500 });
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await expect.poll(() => journal.waiting.length).toBe(2);
    clock.increment(1_000);
    await journal.commit();
    await journal.commit();
    await until(agent('A'), (c) => c.received.length === 1);
    // Its timer has not fired: the durable answer cancelled it.
    expect(clock.armed(TIMEOUT)).toBe(0);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(received('A')[0]!.delivery).toEqual({ kind: 'response', correlationId: q.message_id });
    expect(rejected('A')).toHaveLength(0);
    expect(received('B')).toHaveLength(0);
  });

  it('leaves it to an answer admitted meanwhile: failed, the requester hears request_timeout once and the timer is gone', async () => {
    const { agent, rejected, clock, journal, q, sendAs } = await asked({ expiry: true, expiresAt: 10_500 });
    sendAs('B', { type: 'supervisor.respond', inReplyTo: q.message_id, envelope: answerTo() });
    await expect.poll(() => journal.waiting.length).toBe(2);
    clock.increment(1_000);
    await journal.commit();
    journal.fail();
    await until(agent('A'), (c) => c.rejected.length === 1);
    expect(clock.armed(TIMEOUT)).toBe(0);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A')).toMatchObject([{ error: { code: 'request_timeout' }, requestId: q.message_id }]);
  });

  it('tells its requester once also when its timer fired while it waited', async () => {
    const { agent, rejected, clock, journal } = await asked({ expiry: true, expiresAt: 12_000 });
    clock.increment(TIMEOUT);
    await flush();
    expect(rejected('A')).toHaveLength(0);
    await journal.commit();
    await until(agent('A'), (c) => c.rejected.length === 1);
    clock.increment(10 * TIMEOUT);
    await flush();
    expect(rejected('A').map((r) => r.error.message)).toEqual([
      expect.stringContaining('expired before it could be delivered'),
    ]);
  });
});
