import { describe, expect, it } from 'vitest';
import { AckLedger } from '../../../../machines/runtime/ack-ledger.ts';

const policy = { timeoutMs: 1_000, retries: 2 };
/** random 0: each backoff is its ceiling, 100 ms then 200 ms then 400 ms. */
const ledger = (random = () => 0) => new AckLedger<string>({ backoff: { baseMs: 100, maxMs: 1_000 }, random });
const summary = (dues: ReturnType<AckLedger<string>['due']>) =>
  dues.map(({ type, entry }) => [type, entry.messageId, entry.receiver, entry.attempts]);

describe('AckLedger', () => {
  it('settles an ack in time once; a second ack or one for an unknown pair changes nothing', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    expect(acks.nextDueAt()).toBe(1_000);
    expect(acks.acked('m1', 'B')).toMatchObject({ messageId: 'm1', receiver: 'B', attempts: 1, item: 'record' });
    expect(acks.acked('m1', 'B')).toBeUndefined();
    expect(acks.acked('m2', 'B')).toBeUndefined();
    expect(acks.size).toBe(0);
    expect(acks.due(10_000)).toEqual([]);
    expect(acks.nextDueAt()).toBeUndefined();
  });

  it('after a missed ack waits the backoff from the deadline, then redelivers the same id with a new deadline', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    expect(acks.due(999)).toEqual([]);
    expect(acks.due(1_000)).toEqual([]);
    expect(acks.get('m1', 'B')).toMatchObject({ phase: 'backingOff', dueAt: 1_100 });
    expect(acks.nextDueAt()).toBe(1_100);
    expect(summary(acks.due(1_099))).toEqual([]);
    expect(summary(acks.due(1_100))).toEqual([['redeliver', 'm1', 'B', 2]]);
    expect(acks.get('m1', 'B')).toMatchObject({ phase: 'awaitingAck', dueAt: 2_100 });
    expect(acks.acked('m1', 'B')?.attempts).toBe(2);
  });

  it('gives up after `retries` redeliveries, exactly once, and ignores a late ack', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    const seen = [];
    for (let now = 0; now <= 10_000; now += 50) seen.push(...summary(acks.due(now)));
    expect(seen).toEqual([
      ['redeliver', 'm1', 'B', 2],
      ['redeliver', 'm1', 'B', 3],
      ['undeliverable', 'm1', 'B', 3],
    ]);
    expect(acks.acked('m1', 'B')).toBeUndefined();
    expect(acks.size).toBe(0);
  });

  it('processes a long silence in one call: backoffs that ran out redeliver at once', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    expect(summary(acks.due(5_000))).toEqual([['redeliver', 'm1', 'B', 2]]);
    expect(acks.get('m1', 'B')?.dueAt).toBe(6_000);
  });

  it('spaces redeliveries with the seeded jitter and the exponential ceiling', () => {
    const acks = ledger(() => 0.5);
    acks.delivered('m1', 'B', { timeoutMs: 1_000, retries: 5 }, 0, 'record');
    acks.due(1_000);
    // 100 * (1 - 0.5 * 0.5) = 75
    expect(acks.get('m1', 'B')?.dueAt).toBe(1_075);
    acks.due(1_075);
    acks.due(2_075);
    // 200 * 0.75 = 150
    expect(acks.get('m1', 'B')?.dueAt).toBe(2_225);
  });

  it('tracks several receivers of one message each on its own', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    acks.delivered('m1', 'C', policy, 0, 'record');
    acks.acked('m1', 'B');
    expect(summary(acks.due(1_100))).toEqual([['redeliver', 'm1', 'C', 2]]);
    expect(acks.get('m1', 'B')).toBeUndefined();
  });

  it('keeps a pair as it is when delivered again (its own redeliveries count)', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'first');
    acks.delivered('m1', 'B', policy, 500, 'second');
    expect(acks.get('m1', 'B')).toMatchObject({ attempts: 1, dueAt: 1_000, item: 'first' });
  });

  it('counts a throttle as a missed delivery that waits at least retryAfterMs, and gives up on the last one', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    expect(acks.throttled('m1', 'B', 10, 500)?.gaveUp).toBe(false);
    expect(acks.get('m1', 'B')).toMatchObject({ phase: 'backingOff', dueAt: 510 });
    // A throttle of a pair waiting out its backoff, or unknown, is ignored.
    expect(acks.throttled('m1', 'B', 20, 500)).toBeUndefined();
    expect(acks.throttled('m9', 'B', 20, 500)).toBeUndefined();
    expect(summary(acks.due(510))).toEqual([['redeliver', 'm1', 'B', 2]]);
    // The backoff wins when it is longer than the hint.
    expect(acks.throttled('m1', 'B', 600, 0)?.gaveUp).toBe(false);
    expect(acks.get('m1', 'B')?.dueAt).toBe(800);
    acks.due(800);
    expect(acks.throttled('m1', 'B', 900, 0)).toMatchObject({ gaveUp: true, entry: { attempts: 3 } });
    expect(acks.size).toBe(0);
  });

  it('forgets every receiver of a cancelled message, and restores an entry as journaled', () => {
    const acks = ledger();
    acks.delivered('m1', 'B', policy, 0, 'record');
    acks.delivered('m1', 'C', policy, 0, 'record');
    acks.delivered('m2', 'B', policy, 0, 'record');
    acks.cancel('m1');
    expect([...acks.pending()].map((e) => e.messageId)).toEqual(['m2']);
    acks.restore({ messageId: 'm3', receiver: 'B', policy, attempts: 2, phase: 'awaitingAck', dueAt: 50, item: 'r3' });
    expect(acks.nextDueAt()).toBe(50);
    expect(summary(acks.due(50))).toEqual([]);
    expect(acks.get('m3', 'B')).toMatchObject({ phase: 'backingOff', dueAt: 250 });
  });
});
