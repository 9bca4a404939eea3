import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { actionLabel, guardLabel } from './guard-label.ts';
import { delayOf, transitionIdOf, triggerOf, type TriggerKind } from './transition-id.ts';

/** One state node, the machine's root included (its `parent` is null). */
export interface GraphState {
  /** XState's state id: `pipeline.scientist_processing`; unique in the machine. */
  id: string;
  key: string;
  parent: string | null;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** For a history state: whether it remembers the direct child (shallow) or every descendant (deep). */
  history: 'shallow' | 'deep' | null;
  /** The id of the initial child of a compound state. */
  initial: string | null;
  description: string | null;
  entry: string[];
  exit: string[];
  invoke: { id: string; src: string }[];
  tags: string[];
}

/** One transition as the code defines it (a guarded alternative is a transition of its own). */
export interface GraphTransition {
  /** See {@link transitionIdOf}. */
  id: string;
  source: string;
  /** Target state ids; empty for a transition that only runs actions (it stays in `source`). */
  targets: string[];
  /** XState's event type (`xstate.after.…` for delays), or `''` for `always`. */
  event: string;
  kind: TriggerKind;
  /** The trigger as the diagram shows it: `supervisor.report`, `after agentTimeout`, `onDone brain`. */
  trigger: string;
  /** The delay's name or its milliseconds, for `after`. */
  delay: string | number | null;
  guard: string | null;
  actions: string[];
  reenter: boolean;
  description: string | null;
  /** Position among the source's alternatives for this trigger: the first whose guard passes wins. */
  order: number;
}

/** A machine as data: `{ states, transitions }` in document order. */
export interface MachineGraph {
  id: string;
  root: string;
  states: GraphState[];
  transitions: GraphTransition[];
}

function srcName(src: unknown): string {
  if (typeof src === 'string') return src;
  return (src as { id?: string } | undefined)?.id ?? 'inline actor';
}

function listOf(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function stateOf(node: AnyStateNode): GraphState {
  const initialTarget = node.type === 'compound' ? (node.initial?.target?.[0]?.id ?? null) : null;
  return {
    id: node.id,
    key: node.key,
    parent: node.parent?.id ?? null,
    type: node.type,
    history: node.type === 'history' ? (node.history === 'deep' ? 'deep' : 'shallow') : null,
    initial: initialTarget,
    description: node.description ?? null,
    // The config, not node.entry: XState adds its own raise/cancel there for `after` timers.
    entry: listOf(node.config.entry).map(actionLabel),
    exit: listOf(node.config.exit).map(actionLabel),
    invoke: node.invoke.map((invoke) => ({ id: invoke.id, src: srcName(invoke.src) })),
    tags: [...node.tags],
  };
}

function transitionOf(transition: AnyTransitionDefinition, eventless: boolean, order: number): GraphTransition {
  const trigger = triggerOf(transition, eventless);
  return {
    id: transitionIdOf(transition),
    source: transition.source.id,
    targets: (transition.target ?? []).map((target) => target.id),
    event: eventless ? '' : String(transition.eventType),
    kind: trigger.kind,
    trigger: trigger.label,
    delay: trigger.kind === 'after' ? delayOf(transition) : null,
    guard: transition.guard === undefined ? null : guardLabel(transition.guard),
    actions: transition.actions.map(actionLabel),
    reenter: transition.reenter,
    description: transition.description ?? null,
    order,
  };
}

/** Every transition a state node defines itself: `on`, `after`, invoke `onDone`/`onError`, `always`. */
function ownTransitions(node: AnyStateNode): GraphTransition[] {
  const evented = [...node.transitions.values()].flatMap((alternatives) =>
    alternatives.map((t, order) => transitionOf(t, false, order)),
  );
  const eventless = (node.always ?? []).map((t, order) => transitionOf(t, true, order));
  return [...evented, ...eventless];
}

function walk(node: AnyStateNode, states: GraphState[], transitions: GraphTransition[]): void {
  states.push(stateOf(node));
  transitions.push(...ownTransitions(node));
  for (const child of Object.values(node.states) as AnyStateNode[]) walk(child, states, transitions);
}

/**
 * Walks a machine's state nodes (nested and parallel ones included) into its graph: the diagram,
 * the JSON and the Mermaid text are all drawn from this, never by hand.
 *
 * @example
 * const { states, transitions } = machineGraph(pipelineMachine);
 */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  walk(machine.root, states, transitions);
  return { id: machine.id, root: machine.root.id, states, transitions };
}
