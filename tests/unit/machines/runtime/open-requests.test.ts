import { describe, expect, it } from 'vitest';
import { OpenRequests } from '../../../../machines/runtime/open-requests.ts';

/** Requests q1 (A to B) and q2 (A to C), open and durable. */
function twoOpen(): OpenRequests {
  const requests = new OpenRequests();
  requests.open('q1', 'A', 'B');
  requests.open('q2', 'A', 'C');
  expect(requests.stored('q1')).toBeUndefined();
  expect(requests.stored('q2')).toBeUndefined();
  return requests;
}
const q1 = { requester: 'A', to: 'B', storing: false };
const q2 = { requester: 'A', to: 'C', storing: false };

describe('OpenRequests', () => {
  it('takes an answer to an open request, and to no other', () => {
    const requests = twoOpen();
    expect(requests.size).toBe(2);
    expect(requests.answerable('q1')).toEqual(q1);
    expect(requests.answerable('q3')).toBeUndefined();
    expect(requests.answerable(undefined)).toBeUndefined();
  });

  it('holds a request while its answer is journaled, and closes it once that answer is durable', () => {
    const requests = twoOpen();
    requests.answering('q1', 'r1');
    expect(requests.answerable('q1')).toBeUndefined();
    expect(requests.answerable('q2')).toBeDefined();
    expect(requests.size).toBe(2);
    expect(requests.answered('q1', 'other')).toBe(false);
    expect(requests.size).toBe(2);
    expect(requests.answered('q1', 'r1')).toBe(true);
    expect(requests.size).toBe(1);
    expect(requests.answered('q1', 'r1')).toBe(false);
    expect(requests.answered('q2', 'r2')).toBe(false);
    expect(requests.answerable('q2')).toBeDefined();
  });

  it('reopens a request whose answer failed', () => {
    const requests = twoOpen();
    requests.answering('q1', 'r1');
    expect(requests.unanswered('q1', 'other')).toBeUndefined();
    expect(requests.answerable('q1')).toBeUndefined();
    expect(requests.unanswered('q1', 'r1')).toBeUndefined();
    expect(requests.answerable('q1')).toEqual({ ...q1, answer: undefined });
    expect(requests.size).toBe(2);
    expect(requests.unanswered('q3', 'r3')).toBeUndefined();
  });

  it('expires an unanswered request at once, and one being answered only if its answer then fails', () => {
    const requests = twoOpen();
    expect(requests.expire('q2')).toEqual(q2);
    expect(requests.size).toBe(1);
    expect(requests.expire('q2')).toBeUndefined();
    requests.answering('q1', 'r1');
    expect(requests.expire('q1')).toBeUndefined();
    expect(requests.size).toBe(1);
    expect(requests.unanswered('q1', 'r1')).toMatchObject({ requester: 'A', to: 'B', timedOut: true });
    expect(requests.size).toBe(0);
  });

  it('closes a request that timed out while answered once the answer is durable, telling nobody', () => {
    const requests = twoOpen();
    requests.answering('q1', 'r1');
    requests.expire('q1');
    expect(requests.answered('q1', 'r1')).toBe(true);
    expect(requests.size).toBe(1);
  });

  it('closes a request whatever its state, returning it once', () => {
    const requests = twoOpen();
    requests.answering('q1', 'r1');
    expect(requests.close('q1')).toEqual({ ...q1, answer: 'r1' });
    expect(requests.close('q1')).toBeUndefined();
    expect(requests.answered('q1', 'r1')).toBe(false);
    expect(requests.size).toBe(1);
  });

  it('declines a request its receiver turned down, unless an answer to it is being journaled', () => {
    const requests = twoOpen();
    expect(requests.decline('q2')).toEqual(q2);
    expect(requests.size).toBe(1);
    expect(requests.decline('q2')).toBeUndefined();
    requests.answering('q1', 'r1');
    expect(requests.decline('q1')).toBeUndefined();
    expect(requests.size).toBe(1);
    expect(requests.answered('q1', 'r1')).toBe(true);
    expect(requests.size).toBe(0);
  });

  it('gives a request opened again (after its append failed) a fresh start', () => {
    const requests = twoOpen();
    requests.answering('q1', 'r1');
    requests.expire('q1');
    requests.open('q1', 'A', 'B');
    expect(requests.answerable('q1')).toEqual({ requester: 'A', to: 'B', storing: true });
    requests.stored('q1');
    expect(requests.expire('q1')).toEqual(q1);
  });

  it('holds a timeout that fires while the request is being journaled until it is stored, then closes it', () => {
    const requests = new OpenRequests();
    requests.open('q1', 'A', 'B');
    requests.open('q2', 'A', 'C');
    expect(requests.expire('q1')).toBeUndefined();
    expect(requests.size).toBe(2);
    // Timed out: nobody may answer it any more.
    expect(requests.answerable('q1')).toBeUndefined();
    expect(requests.answerable('q2')).toEqual({ requester: 'A', to: 'C', storing: true });
    expect(requests.stored('q2')).toBeUndefined();
    expect(requests.size).toBe(2);
    expect(requests.stored('q1')).toEqual({ ...q1, timedOut: true });
    expect(requests.size).toBe(1);
    expect(requests.stored('q1')).toBeUndefined();
    expect(requests.stored('q2')).toBeUndefined();
    expect(requests.expire('q2')).toEqual(q2);
  });

  it('leaves a request that timed out while it was being journaled to an answer held at its turn', () => {
    const requests = new OpenRequests();
    requests.open('q1', 'A', 'B');
    requests.answering('q1', 'r1');
    requests.expire('q1');
    expect(requests.stored('q1')).toBeUndefined();
    expect(requests.size).toBe(1);
    expect(requests.answered('q1', 'r1')).toBe(true);
    expect(requests.size).toBe(0);
    // The same, with the answer failing: the request ends timed out then.
    requests.open('q2', 'A', 'C');
    requests.answering('q2', 'r2');
    requests.expire('q2');
    requests.stored('q2');
    expect(requests.unanswered('q2', 'r2')).toEqual({ ...q2, answer: undefined, timedOut: true });
    expect(requests.size).toBe(0);
  });

  it('closes a request nobody received (it expired waiting) unless an answer to it is held, which then decides', () => {
    const requests = new OpenRequests();
    requests.open('q1', 'A', 'B');
    requests.open('q2', 'A', 'C');
    expect(requests.undelivered('q1')).toEqual({ requester: 'A', to: 'B', storing: true });
    expect(requests.undelivered('q1')).toBeUndefined();
    expect(requests.size).toBe(1);
    requests.answering('q2', 'r2');
    expect(requests.undelivered('q2')).toBeUndefined();
    expect(requests.size).toBe(1);
    // Ended unless the answer is durable: its timer firing now changes nothing.
    expect(requests.expire('q2')).toBeUndefined();
    expect(requests.unanswered('q2', 'r2')).toEqual({ ...q2, answer: undefined, timedOut: true });
    expect(requests.size).toBe(0);
  });

  it('closes a request that timed out while it was being journaled when its append fails, once', () => {
    const requests = new OpenRequests();
    requests.open('q1', 'A', 'B');
    requests.expire('q1');
    expect(requests.close('q1')).toEqual({ requester: 'A', to: 'B', storing: true, timedOut: true });
    expect(requests.stored('q1')).toBeUndefined();
    expect(requests.size).toBe(0);
  });

  it('ignores an answer to a request that is not open', () => {
    const requests = new OpenRequests();
    requests.answering('q1', 'r1');
    expect(requests.size).toBe(0);
    expect(requests.answerable('q1')).toBeUndefined();
  });
});
