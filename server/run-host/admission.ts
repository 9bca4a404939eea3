import { OverloadedError, TooManyRunsError } from '../../protocol/runtime/runtime-error.ts';

/** How much work one run host takes on at once (README, "Admission control"). */
export interface AdmissionLimits {
  /** Runs working at once in this host (a run works from `start` or a wake-up until it rests or ends). */
  maxWorking: number;
  /** Runs of one owner working at once; beyond it that owner gets 429 while others still get in. */
  maxPerOwner: number;
  /** What a refused caller is told to wait, in seconds (`Retry-After`). */
  retryAfterSeconds: number;
}

/** The defaults: sized on the 2-core bench machine so that accepted work keeps a bounded latency. */
export const DEFAULT_ADMISSION: AdmissionLimits = { maxWorking: 32, maxPerOwner: 8, retryAfterSeconds: 1 };

/**
 * Counts the runs a host has working, in all and per owner, and refuses new work beyond its
 * limits at once (never queued): the caller answers 503 or 429 with `Retry-After`. A slot is
 * taken by `admit` and given back by `leave`, each keyed by the run's partition, so taking it
 * twice or giving it back twice counts once.
 */
export class Admission {
  private readonly working = new Map<string, string>();
  private readonly perOwner = new Map<string, number>();

  constructor(
    /** What the host runs, as a caller reads it in an error ("pipeline runs"). */
    private readonly what: string,
    readonly limits: AdmissionLimits,
  ) {}

  /** Runs working now. */
  get size(): number {
    return this.working.size;
  }

  /** Throws when `owner` may not start more work now; changes nothing. */
  check(owner: string): void {
    const { maxWorking, maxPerOwner, retryAfterSeconds } = this.limits;
    if ((this.perOwner.get(owner) ?? 0) >= maxPerOwner)
      throw new TooManyRunsError(this.what, maxPerOwner, retryAfterSeconds);
    if (this.working.size >= maxWorking) throw new OverloadedError(this.what, retryAfterSeconds);
  }

  /**
   * Counts `partition` as working for `owner`: checked first unless it already works, or when
   * `force` (work accepted already: a run recovered after a restart, one checked before waking).
   */
  admit(partition: string, owner: string, options: { force?: boolean } = {}): void {
    if (this.working.has(partition)) return;
    if (!options.force) this.check(owner);
    this.working.set(partition, owner);
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1);
  }

  /** `partition` no longer works (it rests, ended or was stopped). */
  leave(partition: string): void {
    const owner = this.working.get(partition);
    if (owner === undefined) return;
    this.working.delete(partition);
    const left = (this.perOwner.get(owner) ?? 1) - 1;
    if (left > 0) this.perOwner.set(owner, left);
    else this.perOwner.delete(owner);
  }

  /** Whether `partition` counts as working. */
  has(partition: string): boolean {
    return this.working.has(partition);
  }
}
