import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { ResourceLocks, type LockLease } from '../../../actors/runtime/resource-locks.ts';

const op = fc.oneof(
  fc.record({ kind: fc.constant('acquire' as const), resource: fc.nat(2), leaseMs: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 40 }) }),
);

const flush = () => new Promise((resolve) => setImmediate(resolve));

interface Request {
  id: number;
  resource: string;
  controller: AbortController;
  cancelled: boolean;
  leases: LockLease[];
}

describe('ResourceLocks (random requests, releases, cancellations and expiries)', () => {
  it('never lets two holders hold one resource, grants in request order, and grants every waiter once holders release', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const clock = new SimulatedClock();
        const locks = new ResourceLocks({ clock, leaseMs: 30 });
        const requests: Request[] = [];
        const grantOrder = new Map<string, number[]>();
        const active = () => requests.flatMap((r) => r.leases).filter((lease) => !lease.signal.aborted);
        const check = () => {
          for (const resource of ['r0', 'r1', 'r2']) {
            const holders = active().filter((lease) => lease.resource === resource);
            expect(holders.length).toBeLessThanOrEqual(1);
            expect(locks.holderOf(resource)).toBe(holders[0]?.holder);
          }
        };
        for (const step of ops) {
          if (step.kind === 'acquire') {
            const request: Request = {
              id: requests.length,
              resource: `r${step.resource}`,
              controller: new AbortController(),
              cancelled: false,
              leases: [],
            };
            requests.push(request);
            locks
              .acquire(request.resource, `h${request.id}`, { leaseMs: step.leaseMs, signal: request.controller.signal })
              .then(
                (lease) => {
                  request.leases.push(lease);
                  grantOrder.set(request.resource, [...(grantOrder.get(request.resource) ?? []), request.id]);
                },
                () => (request.cancelled = true),
              );
          } else if (step.kind === 'release') {
            // any lease ever granted: a late release (after expiry or a first release) must free nothing
            const granted = requests.flatMap((r) => r.leases);
            granted[step.pick % Math.max(1, granted.length)]?.release();
          } else if (step.kind === 'cancel') {
            requests[step.pick % Math.max(1, requests.length)]?.controller.abort();
          } else clock.increment(step.ms);
          await flush();
          check();
        }
        // every holder lets go: each request still waiting is granted in turn
        for (let round = 0; round <= requests.length; round++) {
          for (const lease of active()) lease.release();
          await flush();
          check();
        }
        for (const request of requests) {
          expect(request.leases.length + (request.cancelled ? 1 : 0)).toBe(1);
        }
        for (const order of grantOrder.values()) expect(order).toEqual([...order].sort((a, b) => a - b));
        for (const resource of ['r0', 'r1', 'r2']) expect(locks.waiting(resource)).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});
