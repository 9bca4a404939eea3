import type { AnyTransitionDefinition, InspectionEvent, StateValue } from 'xstate';
import type { MachineGraph } from './machine-graph.ts';
import { edgeGroupId } from './to-dot.ts';
import { transitionIdOf } from './transition-id.ts';

/** What the live view hears after each microstep of the watched machine (one SSE `transition`). */
export interface LiveTransition {
  at: string;
  /** The event that was processed (`supervisor.report`, `xstate.after.…`, or the one that led to an `always`). */
  event: string;
  /** The ids of the transitions taken, as in the graph. */
  transitions: string[];
  /** The arrows they were drawn on. */
  edges: string[];
  /** Every active state id afterwards, from the root down. */
  active: string[];
}

/**
 * The active state ids for a state value: the root, then each active descendant.
 *
 * @example
 * activeStateIds(agentGraph, { working: 'running' }) // ['agent', 'agent.working', 'agent.working.running']
 */
export function activeStateIds(graph: MachineGraph, value: StateValue): string[] {
  const childOf = childrenOf(graph);
  const active: string[] = [];
  const walk = (stateId: string, sub: StateValue | undefined) => {
    active.push(stateId);
    if (sub === undefined) return;
    const entries: [string, StateValue | undefined][] =
      typeof sub === 'string' ? [[sub, undefined]] : Object.entries(sub);
    for (const [key, deeper] of entries) {
      const child = childOf.get(`${stateId}\u0000${key}`);
      if (child) walk(child, deeper);
    }
  };
  walk(graph.root, value);
  return active;
}

const children = new WeakMap<MachineGraph, ReadonlyMap<string, string>>();

/** Each state's child by `<parent id>\u0000<key>`, built once per graph. */
function childrenOf(graph: MachineGraph): ReadonlyMap<string, string> {
  let childOf = children.get(graph);
  if (!childOf) {
    childOf = new Map(graph.states.filter((s) => s.parent !== null).map((s) => [`${s.parent}\u0000${s.key}`, s.id]));
    children.set(graph, childOf);
  }
  return childOf;
}

const known = new WeakMap<MachineGraph, ReadonlySet<string>>();

function knownIds(graph: MachineGraph): ReadonlySet<string> {
  let ids = known.get(graph);
  if (!ids) known.set(graph, (ids = new Set(graph.transitions.map((t) => t.id))));
  return ids;
}

function ofThisMachine(
  graph: MachineGraph,
  known: ReadonlySet<string>,
  transition: AnyTransitionDefinition,
): string | undefined {
  // Other machines of the same actor system (the supervisor, the agents) have other root ids.
  if (transition.source.machine.root.id !== graph.root) return undefined;
  const id = transitionIdOf(transition);
  return known.has(id) ? id : undefined;
}

/** Reads a microstep of the drawn machine from an inspection event; undefined for anything else. */
export function liveUpdateOf(
  graph: MachineGraph,
  inspection: InspectionEvent,
  now: () => Date = () => new Date(),
): LiveTransition | undefined {
  if (inspection.type !== '@xstate.microstep') return undefined;
  const known = knownIds(graph);
  const taken = inspection._transitions.flatMap((t) => {
    const id = ofThisMachine(graph, known, t);
    return id ? [{ id, definition: t }] : [];
  });
  if (taken.length === 0) return undefined;
  const edges = taken.flatMap(({ definition }) =>
    (definition.target ?? []).map((target) => edgeGroupId(definition.source.id, target.id)),
  );
  const snapshot = inspection.snapshot as { value?: StateValue };
  return {
    at: now().toISOString(),
    event: inspection.event.type,
    transitions: taken.map((t) => t.id),
    edges,
    active: snapshot.value === undefined ? [] : activeStateIds(graph, snapshot.value),
  };
}
