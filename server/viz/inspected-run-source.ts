import type { AnyStateMachine, InspectionEvent, StateValue } from 'xstate';
import { machineGraph, type MachineGraph } from './machine-graph.ts';
import { RecentTransitions } from './recent-transitions.ts';
import type { RunInspectors, RunListing, RunSource } from './run-sources.ts';

interface InspectedRunSourceOptions {
  /** The machine its runs execute; it must be registered in machines/registry.ts under its id. */
  machine: AnyStateMachine;
  /** Fed with every inspection event of every run, by run id (a system's `inspect` option). */
  inspectors: RunInspectors;
  /** Whether the run exists and belongs to the user. */
  owns(userId: string, runId: string): boolean | Promise<boolean>;
  /** The run's current state value while it is live (a hosted run's); else the last one inspected. */
  current?(runId: string): StateValue | undefined;
  /** The run's last persisted state value (a resting or finished run's), read when the view opens by its owner. */
  stored?(runId: string, userId: string): Promise<StateValue | undefined>;
  /** The user's runs under way, for the visualizer's list. */
  list?(userId: string): Promise<RunListing[]>;
}

/** The state value a machine starts in, from its graph: the initial child of each compound state. */
export function initialValue(graph: MachineGraph): StateValue {
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  const children = (id: string) => graph.states.filter((s) => s.parent === id);
  const valueOf = (id: string): StateValue | undefined => {
    const state = byId.get(id)!;
    if (state.type === 'parallel') return Object.fromEntries(children(id).map((c) => [c.key, valueOf(c.id) ?? {}]));
    const initial = state.initial ? byId.get(state.initial) : undefined;
    if (!initial) return undefined;
    const deeper = valueOf(initial.id);
    return deeper === undefined ? initial.key : { [initial.key]: deeper };
  };
  return valueOf(graph.root) ?? {};
}

/**
 * A run source for a machine whose runs report inspection events by run id (a hosted run's
 * partition: a pipeline run, a trainer session): it listens from the start, so it knows each
 * run's last state (the live state, else the last one seen, else the initial state) and its
 * recent transitions.
 *
 * @example
 * runSources.register(inspectedRunSource({ machine: agentLoopMachine, inspectors, owns: (user, id) => sessionIsTheirs(user, id) }));
 */
export function inspectedRunSource(options: InspectedRunSourceOptions): RunSource {
  const graph = machineGraph(options.machine);
  const start = initialValue(graph);
  const recent = new RecentTransitions(graph);
  options.inspectors.add((runId, event) => recent.record(runId, event));
  return {
    machine: options.machine.id,
    ...(options.list ? { list: options.list } : {}),
    async open(userId, runId) {
      if (!(await options.owns(userId, runId))) return undefined;
      const stored = await options.stored?.(runId, userId);
      return {
        value: () => options.current?.(runId) ?? recent.lastValue(runId) ?? stored ?? start,
        subscribe(listener) {
          const inspector = (id: string, event: InspectionEvent) => {
            if (id === runId) listener(event);
          };
          options.inspectors.add(inspector);
          return () => options.inspectors.delete(inspector);
        },
        recent: () => recent.of(runId),
      };
    },
  };
}
