import { availableParallelism } from 'node:os';

/**
 * A counting semaphore over sandbox processes: at most `size` children at once, the rest wait in
 * line (their time limit starts only once their child runs). Keeps a burst of runs (racing
 * solvers, many candidates) from starting more Node processes than the machine has cores.
 *
 * @example
 * const release = await sandboxSlots.acquire();
 * try { await work(); } finally { release(); }
 */
export class SandboxSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`SandboxSlots size must be 1 or more; got ${size}.`);
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.size) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.running += 1;
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  /** Runs currently holding a slot, and runs waiting for one. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }
}

/** The slots every sandbox run of this process shares: one per core, at least two. */
export const sandboxSlots = new SandboxSlots(Math.max(2, availableParallelism()));
