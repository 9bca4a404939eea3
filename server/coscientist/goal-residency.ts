import { KeyedQueue } from '../../actors/runtime/keyed-queue.ts';
import type { OpenResearch } from '../../machines/coscientist/open-research.ts';
import type { GoalContent } from '../../protocol/coscientist/memory-content.ts';

/** The states in which a goal waits for nobody but the scientist: it may leave memory. */
const RESTING = new Set(['completed', 'stopped', 'awaiting_scientist']);
/** Task statuses that still need the goal live. */
const WORKING = new Set(['waiting', 'ready', 'running', 'retrying']);

/** What the residency asks of its service. */
export interface ResidencyDeps {
  /** Opens a goal live (on the run host: admission may refuse it). */
  open(id: string, owner: string, options: { goal?: GoalContent; recovered?: boolean }): Promise<OpenResearch>;
  /** Opens a resting goal only to read it. */
  openToRead(id: string): Promise<OpenResearch>;
  /** The goal left memory, resting or ended in `state`. */
  rested(id: string, state: string): Promise<void>;
  /** Resolves once every message the goal handed its supervisor is journaled. */
  quiescent(id: string): Promise<void>;
  onError?: (error: unknown) => void;
}

/**
 * Which goals are in memory. A goal is live from its start or wake-up until it rests (completed,
 * stopped or waiting for the scientist, no task of it waiting or running, its messages journaled,
 * no caller using it): then it is closed and its supervisor released. A read of a resting goal
 * opens it from disk for that read only. Opening and retiring one goal never interleave.
 *
 * @example
 * const state = await residency.wake(id, owner, {}, (research) => research.run.record.state);
 */
export class GoalResidency {
  readonly #live = new Map<string, Promise<OpenResearch>>();
  readonly #open = new Map<string, OpenResearch>();
  readonly #holds = new Map<string, number>();
  /** Opening and retiring run one at a time per goal. */
  readonly #serial = new KeyedQueue();

  constructor(private readonly deps: ResidencyDeps) {}

  /** Uses the goal live, opening (waking) it first when it is not in memory. */
  async wake<T>(
    id: string,
    owner: string,
    options: { goal?: GoalContent; recovered?: boolean },
    use: (research: OpenResearch) => T | Promise<T> = (r) => r as T,
  ): Promise<T> {
    this.#hold(id);
    try {
      const opening =
        this.#live.get(id) ?? (await this.#serial.run(id, () => this.#live.get(id) ?? this.#start(id, owner, options)));
      return await use(await opening);
    } finally {
      this.#unhold(id);
    }
  }

  /** Reads the goal: live if it is in memory, else opened from disk for this read and closed after. */
  async read<T>(id: string, use: (research: OpenResearch) => T | Promise<T>): Promise<T> {
    this.#hold(id);
    try {
      await this.#serial.idle(id); // a retirement under way finishes first
      const live = this.#live.get(id);
      if (live) return await use(await live);
      const research = await this.deps.openToRead(id);
      try {
        return await use(research);
      } finally {
        await research.close();
      }
    } finally {
      this.#unhold(id);
    }
  }

  /** The goals in memory now. */
  live(): OpenResearch[] {
    return [...this.#open.values()];
  }

  /** The goal's state while it is in memory. */
  liveState(id: string): string | undefined {
    return this.#open.get(id)?.run.record.state;
  }

  /** The goal may rest now: retire it once nothing needs it live. */
  settleSoon(id: string): void {
    void this.#serial.run(id, () => this.#retire(id)).catch((error: unknown) => this.deps.onError?.(error));
  }

  async close(): Promise<void> {
    await this.#serial.settled();
    const open = await Promise.allSettled(this.#live.values());
    this.#live.clear();
    this.#open.clear();
    for (const r of open) if (r.status === 'fulfilled') await r.value.close();
  }

  #start(id: string, owner: string, options: { goal?: GoalContent; recovered?: boolean }): Promise<OpenResearch> {
    const opening = this.deps.open(id, owner, options);
    this.#live.set(id, opening);
    opening.then(
      (research) => {
        this.#open.set(id, research);
        research.queue.subscribe(() => {
          if (RESTING.has(research.run.record.state)) this.settleSoon(id);
        });
        this.settleSoon(id); // opened at rest (a guidance to a finished goal, a recovered one that had ended)
      },
      () => {
        if (this.#live.get(id) === opening) this.#live.delete(id);
      },
    );
    return opening;
  }

  async #retire(id: string): Promise<void> {
    const opening = this.#live.get(id);
    if (!opening) return;
    const research = await opening;
    const rests = () =>
      this.#live.get(id) === opening &&
      !this.#holds.has(id) &&
      RESTING.has(research.run.record.state) &&
      !research.run.record.tasks.some((task) => WORKING.has(research.queue.get(task)?.status ?? ''));
    await research.run.idle();
    if (!rests()) return;
    await this.deps.quiescent(id);
    if (!rests()) return;
    this.#live.delete(id);
    this.#open.delete(id);
    const state = research.run.record.state;
    await research.close();
    await this.deps.rested(id, state);
  }

  #hold(id: string): void {
    this.#holds.set(id, (this.#holds.get(id) ?? 0) + 1);
  }

  #unhold(id: string): void {
    const left = (this.#holds.get(id) ?? 1) - 1;
    if (left > 0) return void this.#holds.set(id, left);
    this.#holds.delete(id);
    if (this.#live.has(id)) this.settleSoon(id);
  }
}
