import type { InspectionEvent, StateValue } from 'xstate';
import { liveUpdateOf, type LiveTransition } from './live-update.ts';
import type { MachineGraph } from './machine-graph.ts';

/**
 * The last transitions of each run of one machine, kept from the start, so that a viewer who
 * opens the live view late still sees how the run got where it is. Bounded: `perRun`
 * transitions per run, and the `maxRuns` runs that moved last.
 */
export class RecentTransitions {
  private readonly runs = new Map<string, { transitions: LiveTransition[]; value: StateValue | undefined }>();

  constructor(
    private readonly graph: MachineGraph,
    private readonly perRun = 20,
    private readonly maxRuns = 500,
  ) {}

  /** Keeps the inspection event if it is a microstep of the machine. */
  record(runId: string, event: InspectionEvent): void {
    const update = liveUpdateOf(this.graph, event);
    if (!update) return;
    const list = this.runs.get(runId)?.transitions ?? [];
    const value = (event as { snapshot?: { value?: StateValue } }).snapshot?.value;
    // Re-inserting keeps the map in least-recently-moved order, so the oldest run goes first.
    this.runs.delete(runId);
    this.runs.set(runId, { transitions: [...list, update].slice(-this.perRun), value });
    if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value!);
  }

  /** Oldest first. */
  of(runId: string): LiveTransition[] {
    return [...(this.runs.get(runId)?.transitions ?? [])];
  }

  /** The run's state value after its last recorded transition, if it moved since it was kept. */
  lastValue(runId: string): StateValue | undefined {
    return this.runs.get(runId)?.value;
  }
}
