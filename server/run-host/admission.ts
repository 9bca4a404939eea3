import { OverloadedError, TooManyRunsError } from '../../protocol/runtime/runtime-error.ts';
import { processLoopDelay, type LoopDelaySource } from './loop-delay.ts';

/** How much work one run host takes on at once (README, "Admission control"). */
export interface AdmissionLimits {
  /** Runs working at once in this host (a run works from `start` or a wake-up until it rests or ends). */
  maxWorking: number;
  /** Runs of one owner working at once; beyond it that owner gets 429 while others still get in. */
  maxPerOwner: number;
  /** What a refused caller is told to wait, in seconds (`Retry-After`). */
  retryAfterSeconds: number;
  /**
   * The event-loop delay (ms) the host keeps under by admitting fewer runs than `maxWorking` while
   * the loop lags; 0 keeps the bound fixed at `maxWorking`.
   */
  loopDelayTargetMs: number;
  /** The least the bound goes down to while the loop lags. */
  minWorking: number;
}

/**
 * The defaults: sized on the 2-core bench machine so that accepted work keeps a bounded latency.
 * The bound is fixed here; the server adapts it to {@link SERVER_LOOP_DELAY_TARGET_MS}.
 */
export const DEFAULT_ADMISSION: AdmissionLimits = {
  maxWorking: 32,
  maxPerOwner: 8,
  retryAfterSeconds: 1,
  loopDelayTargetMs: 0,
  minWorking: 6,
};

/** The event-loop delay (ms) `npm start` keeps each run host under, unless `ADMISSION_LOOP_DELAY_MS` says otherwise. */
export const SERVER_LOOP_DELAY_TARGET_MS = 10;

/** What a window over the delay target keeps of the runs working; one at or under half of it adds a quarter. */
const DECREASE = 0.7;
const INCREASE = 0.25;

/**
 * Counts the runs a host has working, in all and per owner, and refuses new work beyond its
 * limits at once (never queued): the caller answers 503 or 429 with `Retry-After`. A slot is
 * taken by `admit` and given back by `leave`, each keyed by the run's partition, so taking it
 * twice or giving it back twice counts once. With `loopDelayTargetMs`, the bound on working runs
 * follows the process's event-loop delay (see `adapt`): runs that wait on a model leave the loop
 * free and may all work, runs that compute share it and are admitted only as many as keep new
 * requests answered quickly.
 */
export class Admission {
  private readonly working = new Map<string, string>();
  private readonly perOwner = new Map<string, number>();
  /** The bound now: `maxWorking`, or less while the event loop lags. */
  private current: number;
  /** The least the bound goes down to (never more than `maxWorking`). */
  private readonly floor: number;
  /** The last delay window the bound was adapted to. */
  private seenWindow = -1;
  /** The most runs working at once since then. */
  private peak = 0;

  constructor(
    /** What the host runs, as a caller reads it in an error ("pipeline runs"). */
    private readonly what: string,
    readonly limits: AdmissionLimits,
    private readonly loopDelay: LoopDelaySource | undefined = limits.loopDelayTargetMs > 0
      ? processLoopDelay()
      : undefined,
  ) {
    this.current = limits.maxWorking;
    this.floor = Math.min(limits.minWorking, limits.maxWorking);
  }

  /** Runs working now. */
  get size(): number {
    return this.working.size;
  }

  /** How many runs may work now: `maxWorking`, or less while the event loop lags (see `adapt`). */
  get bound(): number {
    return this.current;
  }

  /** Throws when `owner` may not start more work now; changes nothing but the bound (see `adapt`). */
  check(owner: string): void {
    const { maxPerOwner, retryAfterSeconds } = this.limits;
    if ((this.perOwner.get(owner) ?? 0) >= maxPerOwner)
      throw new TooManyRunsError(this.what, maxPerOwner, retryAfterSeconds);
    this.adapt();
    if (this.working.size >= this.current) throw new OverloadedError(this.what, retryAfterSeconds);
  }

  /**
   * Counts `partition` as working for `owner`: checked first unless it already works, or when
   * `force` (work accepted already: a run recovered after a restart, one checked before waking).
   */
  admit(partition: string, owner: string, options: { force?: boolean } = {}): void {
    if (this.working.has(partition)) return;
    if (!options.force) this.check(owner);
    this.working.set(partition, owner);
    this.peak = Math.max(this.peak, this.working.size);
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1);
  }

  /**
   * With a delay target, the first check after each new reading of the event loop's delay adapts
   * the bound to it. Over the target: 0.7 x the most runs that worked at once since the last
   * reading (not over the bound, not under `minWorking`), so that new work waits less for the
   * main thread. At or under half the target, when that most came within one of the bound: up
   * by a quarter (at least one, not over `maxWorking`). Otherwise it stays.
   */
  private adapt(): void {
    const reading = this.loopDelay?.();
    if (reading === undefined || reading.window === this.seenWindow) return;
    this.seenWindow = reading.window;
    const { loopDelayTargetMs: target, maxWorking } = this.limits;
    if (reading.delayMs > target)
      this.current = Math.max(this.floor, Math.floor(Math.min(this.current, this.peak) * DECREASE));
    else if (reading.delayMs <= target / 2 && this.peak >= this.current - 1)
      this.current = Math.min(maxWorking, this.current + Math.max(1, Math.floor(this.current * INCREASE)));
    this.peak = this.working.size;
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
