import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { ResourceLocks, type LockLease } from '../../../../actors/runtime/resource-locks.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ResourceLocks', () => {
  it('grants a free resource at once and queues the next requests first in first out', async () => {
    const locks = new ResourceLocks({ clock: new SimulatedClock(), leaseMs: 1_000 });
    const order: string[] = [];
    const first = await locks.acquire('search', 'a');
    const waits = ['b', 'c'].map((holder) =>
      locks.acquire('search', holder).then((lease) => {
        order.push(holder);
        return lease;
      }),
    );
    expect(locks.holderOf('search')).toBe('a');
    expect(locks.waiting('search')).toBe(2);
    expect(first.release()).toBe(true);
    expect(first.release()).toBe(false); // once only
    expect(locks.holderOf('search')).toBe('b');
    const b = await waits[0]!;
    b.release();
    const c = await waits[1]!;
    expect(order).toEqual(['b', 'c']);
    expect(first.signal.reason).toMatchObject({ code: 'lease_released' });
    c.release();
    expect(locks.holderOf('search')).toBeUndefined();
    expect(locks.waiting('search')).toBe(0);
  });

  it('ends a lease at its time limit, aborts its signal and gives the resource to the next waiter', async () => {
    const clock = new SimulatedClock();
    const expired: string[] = [];
    const locks = new ResourceLocks({ clock, leaseMs: 1_000, onExpired: ({ holder }) => expired.push(holder) });
    const slow = await locks.acquire('tool', 'slow', { leaseMs: 500 });
    expect(slow.expiresAt).toBe(500);
    let next: LockLease | undefined;
    void locks.acquire('tool', 'next').then((lease) => (next = lease));
    clock.increment(499);
    await flush();
    expect(slow.signal.aborted).toBe(false);
    expect(next).toBeUndefined();
    clock.increment(1);
    await flush();
    expect(slow.signal.reason).toMatchObject({ code: 'lease_expired', message: expect.stringContaining('500 ms') });
    expect(expired).toEqual(['slow']);
    expect(next).toMatchObject({ holder: 'next', grantedAt: 500, expiresAt: 1_500 });
    expect(slow.release()).toBe(false); // a late release frees nothing of the new holder's
    expect(locks.holderOf('tool')).toBe('next');
    clock.increment(1_000);
    expect(locks.holderOf('tool')).toBeUndefined();
  });

  it('withdraws a waiting request when its signal aborts, and skips it', async () => {
    const locks = new ResourceLocks({ clock: new SimulatedClock() });
    const held = await locks.acquire('r', 'a');
    const controller = new AbortController();
    const withdrawn = locks.acquire('r', 'b', { signal: controller.signal });
    const third = locks.acquire('r', 'c');
    controller.abort();
    await expect(withdrawn).rejects.toMatchObject({ code: 'lock_request_cancelled' });
    expect(locks.waiting('r')).toBe(1);
    held.release();
    expect((await third).holder).toBe('c');
    await expect(locks.acquire('r', 'd', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'lock_request_cancelled',
    });
    expect(() => locks.acquire('r', 'e', { leaseMs: 0 })).toThrow(/leaseMs must be positive/);
  });

  it('keeps resources apart', async () => {
    const locks = new ResourceLocks({ clock: new SimulatedClock() });
    await locks.acquire('x', 'a');
    const other = await locks.acquire('y', 'b');
    expect([locks.holderOf('x'), other.holder]).toEqual(['a', 'b']);
  });
});
