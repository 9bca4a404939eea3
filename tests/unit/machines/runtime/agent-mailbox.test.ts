import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mailboxVerdict, rememberDone, type MailboxState } from '../../../../machines/runtime/agent-mailbox.ts';

const state = (over: Partial<MailboxState> = {}): MailboxState => ({
  queue: [],
  current: null,
  done: [],
  maxQueued: 2,
  ...over,
});

describe('mailboxVerdict', () => {
  it('queues a new request while there is room, and throttles it once the busy worker’s queue is full', () => {
    expect(mailboxVerdict(state(), { requestId: 'r1' })).toBe('enqueue');
    const busy = { current: { requestId: 'r0', input: 0 }, queue: [{ requestId: 'r1', input: 1 }] };
    expect(mailboxVerdict(state(busy), { requestId: 'r2' })).toBe('enqueue');
    const full = { ...busy, queue: [...busy.queue, { requestId: 'r2', input: 2 }] };
    expect(mailboxVerdict(state(full), { requestId: 'r3', ack: true })).toBe('throttle');
  });

  it('drops a redelivery of a queued request, even one that wants an ack (it is acked when it starts)', () => {
    const queued = state({ current: { requestId: 'r0', input: 0 }, queue: [{ requestId: 'r1', input: 1 }] });
    expect(mailboxVerdict(queued, { requestId: 'r1', ack: true })).toBe('drop');
    expect(mailboxVerdict(queued, { requestId: 'r1' })).toBe('drop');
  });

  it('acks again a redelivery of a started or finished request that wants an ack, and drops one that does not', () => {
    const started = state({ current: { requestId: 'r0', input: 0 }, done: ['r-1'] });
    for (const requestId of ['r0', 'r-1']) {
      expect(mailboxVerdict(started, { requestId, ack: true })).toBe('ackAgain');
      expect(mailboxVerdict(started, { requestId })).toBe('drop');
    }
  });
});

describe('rememberDone', () => {
  it('adds the id last, and past the limit keeps the newest `limit` ids', () => {
    expect(rememberDone(['a', 'b', 'c'], 'd', 5)).toEqual(['a', 'b', 'c', 'd']);
    expect(rememberDone(['a', 'b', 'c'], 'd', 4)).toEqual(['a', 'b', 'c', 'd']);
    expect(rememberDone(['a', 'b', 'c'], 'd', 3)).toEqual(['b', 'c', 'd']);
  });

  it('is the newest `limit` ids of everything remembered, in order, without changing its input (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 40 }), fc.integer({ min: 1, max: 10 }), (ids, limit) => {
        let done: string[] = [];
        for (const id of ids) {
          const before = [...done];
          const next = rememberDone(done, id, limit);
          expect(done).toEqual(before);
          done = next;
        }
        expect(done).toEqual(ids.slice(Math.max(0, ids.length - limit)));
      }),
      { numRuns: 500 },
    );
  });
});
