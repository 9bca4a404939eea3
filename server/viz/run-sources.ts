import type { InspectionEvent, StateValue } from 'xstate';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import type { LiveTransition } from './live-update.ts';

/** Who hears every inspection event of every run of a system, by run id (the runtime's `inspectors`). */
export type RunInspectors = Set<(runId: string, event: InspectionEvent) => void>;

/** A run that its owner may watch: where it is now, and everything its actor system does next. */
export interface RunView {
  /** The current state value of the run's actor of the source's machine. */
  value(): StateValue;
  /**
   * Hands every XState inspection event of the run's actor system to `listener` until the
   * returned function is called. Events of other actors in the system may come too: the live
   * view keeps only the microsteps of the machine it draws.
   */
  subscribe(listener: (event: InspectionEvent) => void): () => void;
  /** The run's last transitions before now, oldest first, if the source keeps them (see RecentTransitions). */
  recent?(): LiveTransition[];
}

/** One of a user's runs, as `GET /viz/:machine/runs` lists it (a link to its live view). */
export interface RunListing {
  /** The run id to watch (`?run=`). */
  id: string;
  /** What it is, for people (`ROUTING_DISPATCHER → SPECIALIZED_FLEET (js-solver)`). */
  label: string;
  /** Its current state, as the machine names it. */
  state: string;
  /** What it belongs to (a task id), so a list can group runs. */
  group?: string;
}

/**
 * Where the live view finds the runs of one registered machine (pipelines, sessions, ...).
 *
 * @example
 * sources.register({ machine: 'session', open: (userId, id) => sessions.ownedBy(userId, id) && viewOf(id) });
 */
export interface RunSource {
  /** The registry name of the machine the runs execute (`pipeline`). */
  machine: string;
  /** The run when it exists and belongs to `userId`; undefined otherwise (the two look alike). */
  open(userId: string, runId: string): RunView | undefined | Promise<RunView | undefined>;
  /** The user's runs that are under way, if the source can list them. */
  list?(userId: string): Promise<RunListing[]>;
}

/** The run sources of the runtime, one per machine; a system plugs its runs in with `register`. */
export class RunSources {
  private readonly sources = new Map<string, RunSource>();

  register(source: RunSource): this {
    if (this.sources.has(source.machine))
      throw new Error(`Runs of ${source.machine} already have a source; register each machine once.`);
    this.sources.set(source.machine, source);
    return this;
  }

  /** Whether runs of `machine` can be watched at all. */
  has(machine: string): boolean {
    return this.sources.has(machine);
  }

  /** Whether the user's runs of `machine` can be listed. */
  listable(machine: string): boolean {
    return this.sources.get(machine)?.list !== undefined;
  }

  /** The user's runs of `machine` under way (none when its source cannot list them). */
  async list(machine: string, userId: string): Promise<RunListing[]> {
    return (await this.sources.get(machine)?.list?.(userId)) ?? [];
  }

  /** The user's run of `machine`; "not found" when it is missing or someone else's. */
  async open(machine: string, userId: string, runId: string): Promise<RunView> {
    const view = await this.sources.get(machine)?.open(userId, runId);
    if (!view) throw new NotFoundError(`Run ${runId} of ${machine}`);
    return view;
  }
}
