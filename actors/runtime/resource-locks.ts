import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { realClock, type ServiceClock } from './clock.ts';
import { DeadlineTimers } from './deadline-timers.ts';

/** A granted lock: the holder uses the resource until it releases or `expiresAt` passes. */
export interface LockLease {
  readonly resource: string;
  readonly holder: string;
  readonly grantedAt: number;
  readonly expiresAt: number;
  /** Aborted when the lease ends (released or expired): stop using the resource. */
  readonly signal: AbortSignal;
  /** Gives the resource to the next waiter; false when the lease had already ended. */
  release(): boolean;
}

/** Options of one `acquire`. */
export interface LockRequestOptions {
  /** How long the lease lasts once granted (the locks' default otherwise). */
  leaseMs?: number;
  /** Aborting it while waiting withdraws the request (the promise rejects with `lock_request_cancelled`). */
  signal?: AbortSignal;
}

interface Waiter {
  holder: string;
  leaseMs: number;
  grant: (lease: LockLease) => void;
}

interface Resource {
  lease?: { holder: string; controller: AbortController };
  waiters: Waiter[];
}

/**
 * Exclusive locks on shared resources (spec 003, Resource Coordination: a web search, an external
 * tool): `acquire` grants at once when the resource is free, else queues the request first in
 * first out; a lease lasts `leaseMs` on the clock and ends on `release` or on expiry, and the
 * resource then goes to the next waiter at once. Resources are names the system chooses; one
 * holds memory only while it is held or awaited. Locks live in memory on purpose: they guard work
 * under way in this process, and after a restart no such work holds one.
 *
 * @example
 * const locks = new ResourceLocks({ clock, leaseMs: 10_000 });
 * const lease = await locks.acquire('web-search', 'task-7');
 * try { await search(query, { signal: lease.signal }); } finally { lease.release(); }
 */
export class ResourceLocks {
  readonly #clock: ServiceClock;
  readonly #leaseMs: number;
  readonly #onExpired: (lease: { resource: string; holder: string }) => void;
  readonly #resources = new Map<string, Resource>();
  /** One lease timer per resource. */
  readonly #expiries: DeadlineTimers<string>;

  constructor(
    options: {
      clock?: ServiceClock;
      /** Default lease (30 s). */
      leaseMs?: number;
      /** Told when a lease expires before its holder released it. */
      onExpired?: (lease: { resource: string; holder: string }) => void;
    } = {},
  ) {
    this.#clock = options.clock ?? realClock;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#onExpired = options.onExpired ?? (() => {});
    this.#expiries = new DeadlineTimers(this.#clock);
  }

  /** Resolves with a lease on `resource` for `holder`: at once if free, else in FIFO order. */
  acquire(resource: string, holder: string, options: LockRequestOptions = {}): Promise<LockLease> {
    const leaseMs = options.leaseMs ?? this.#leaseMs;
    if (!(leaseMs > 0)) throw new RangeError(`leaseMs must be positive, got ${leaseMs}`);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(cancelled(resource, holder));
    const entry = this.#entry(resource);
    return new Promise<LockLease>((resolve, reject) => {
      const waiter: Waiter = { holder, leaseMs, grant: resolve };
      entry.waiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const at = entry.waiters.indexOf(waiter);
          if (at < 0) return; // granted already: the lease is the holder's to release
          entry.waiters.splice(at, 1);
          this.#forgetIfIdle(resource, entry);
          reject(cancelled(resource, holder));
        },
        { once: true },
      );
      if (!entry.lease) this.#grantNext(resource, entry);
    });
  }

  /** Who holds `resource` now, if anyone. */
  holderOf(resource: string): string | undefined {
    return this.#resources.get(resource)?.lease?.holder;
  }

  /** How many requests wait for `resource`. */
  waiting(resource: string): number {
    return this.#resources.get(resource)?.waiters.length ?? 0;
  }

  #entry(resource: string): Resource {
    let entry = this.#resources.get(resource);
    if (!entry) this.#resources.set(resource, (entry = { waiters: [] }));
    return entry;
  }

  #grantNext(resource: string, entry: Resource): void {
    const waiter = entry.waiters.shift();
    if (!waiter) {
      this.#forgetIfIdle(resource, entry);
      return;
    }
    const controller = new AbortController();
    const grantedAt = this.#clock.now();
    const end = (expired: boolean): boolean => {
      if (entry.lease !== lease) return false;
      this.#expiries.disarm(resource);
      entry.lease = undefined;
      controller.abort(
        new RuntimeError(
          expired ? 'lease_expired' : 'lease_released',
          `The lease of ${waiter.holder} on ${resource} ${expired ? `expired after ${waiter.leaseMs} ms` : 'was released'}.`,
        ),
      );
      if (expired) this.#onExpired({ resource, holder: waiter.holder });
      this.#grantNext(resource, entry);
      return true;
    };
    const lease = { holder: waiter.holder, controller };
    entry.lease = lease;
    this.#expiries.arm(resource, grantedAt + waiter.leaseMs, () => end(true));
    waiter.grant(
      Object.freeze({
        resource,
        holder: waiter.holder,
        grantedAt,
        expiresAt: grantedAt + waiter.leaseMs,
        signal: controller.signal,
        release: () => end(false),
      }),
    );
  }

  #forgetIfIdle(resource: string, entry: Resource): void {
    if (!entry.lease && entry.waiters.length === 0 && this.#resources.get(resource) === entry) {
      this.#resources.delete(resource);
    }
  }
}

function cancelled(resource: string, holder: string): RuntimeError {
  return new RuntimeError(
    'lock_request_cancelled',
    `The request of ${holder} for ${resource} was withdrawn before it was granted.`,
  );
}
