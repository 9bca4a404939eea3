import type { AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** What kind of trigger a transition has. */
export type TriggerKind = 'event' | 'after' | 'always' | 'done' | 'error' | 'state-done';

/** A transition's trigger: its kind, a short key for ids, and what the diagram shows. */
interface Trigger {
  kind: TriggerKind;
  /** Short and stable: `supervisor.report`, `after.pipelineTimeout`, `done.brain`, `always`. */
  key: string;
  /** What a reader sees: `supervisor.report`, `after pipelineTimeout`, `onDone brain`, `always`. */
  label: string;
}

const AFTER = 'xstate.after.';
const DONE_ACTOR = 'xstate.done.actor.';
const ERROR_ACTOR = 'xstate.error.actor.';
const DONE_STATE = 'xstate.done.state.';

function delayLabel(delay: unknown): string {
  if (typeof delay === 'number') return `${delay} ms`;
  if (typeof delay === 'string') return delay;
  return 'delay';
}

/** The delay of an `after` transition, by name (a `delays` entry) or in milliseconds. */
export function delayOf(transition: AnyTransitionDefinition): string | number | null {
  const delayed = transition.source.after.find(
    (candidate) => candidate === transition || candidate.eventType === transition.eventType,
  );
  const delay = (delayed as { delay?: unknown } | undefined)?.delay;
  return typeof delay === 'string' || typeof delay === 'number' ? delay : null;
}

/** The invoked actor's logic name (`brain`), rather than its id (XState generates one when none is given). */
function invokedName(transition: AnyTransitionDefinition, invokeId: string): string {
  const src = transition.source.invoke.find((invoke) => invoke.id === invokeId)?.src;
  return typeof src === 'string' ? src : invokeId;
}

/** Reads the trigger of a transition from its event type (XState's built-in event families). */
export function triggerOf(transition: AnyTransitionDefinition, eventless = false): Trigger {
  if (eventless) return { kind: 'always', key: 'always', label: 'always' };
  const type = String(transition.eventType);
  if (type.startsWith(AFTER)) {
    const delay = delayLabel(delayOf(transition));
    return { kind: 'after', key: `after.${delay.replace(/\s/g, '')}`, label: `after ${delay}` };
  }
  if (type.startsWith(DONE_ACTOR)) {
    const id = type.slice(DONE_ACTOR.length);
    return { kind: 'done', key: `done.${id}`, label: `onDone ${invokedName(transition, id)}` };
  }
  if (type.startsWith(ERROR_ACTOR)) {
    const id = type.slice(ERROR_ACTOR.length);
    return { kind: 'error', key: `error.${id}`, label: `onError ${invokedName(transition, id)}` };
  }
  if (type.startsWith(DONE_STATE)) return { kind: 'state-done', key: 'done.state', label: 'onDone' };
  return { kind: 'event', key: type, label: type };
}

/** Whether a transition is one of its source's eventless (`always`) transitions. */
function isEventless(transition: AnyTransitionDefinition): boolean {
  return (transition.source.always ?? []).includes(transition);
}

/**
 * The stable id of a transition: `<source state id>:<trigger key>:<index among the source's
 * transitions for that trigger>`. Derived from the definition only, so the id of a transition
 * taken by a running actor equals the id drawn for it (and `xstate/graph` edges map onto it).
 *
 * @example
 * // the fourth `supervisor.report` transition of the SCIENTIST stage
 * 'pipeline.scientist_processing:supervisor.report:3'
 */
export function transitionIdOf(transition: AnyTransitionDefinition): string {
  const source: AnyStateNode = transition.source;
  const eventless = isEventless(transition);
  const siblings = eventless ? (source.always ?? []) : (source.transitions.get(transition.eventType) ?? []);
  const index = siblings.indexOf(transition);
  if (index < 0)
    throw new Error(
      `Transition ${String(transition.eventType)} is not one of ${source.id}'s own (a bug in the walker).`,
    );
  return `${source.id}:${triggerOf(transition, eventless).key}:${index}`;
}
