import type { A2aState, A2aStatus } from './a2a-mapping.ts';

/**
 * How a system's own view of its work reads as an A2A task status: `state` picks the task state,
 * `messages` explains the states that need it (a question, a failure, a stop). A state with no
 * entry, or whose entry gives `undefined`, has no message.
 */
export interface A2aStatusRules<V> {
  state(view: V): A2aState;
  messages?: { readonly [S in A2aState]?: (view: V) => string | undefined };
}

/**
 * The one way a mapping turns its system's view into a task status (`{ state, message? }`, no
 * `message` key when there is none); the mapping adds the artifacts.
 *
 * @example
 * const statusOf = a2aStatusOf<{ done: boolean; error?: string }>({
 *   state: (run) => (run.error ? 'failed' : run.done ? 'completed' : 'working'),
 *   messages: { failed: (run) => run.error },
 * });
 * statusOf({ done: false, error: 'timeout' }); // { state: 'failed', message: 'timeout' }
 */
export function a2aStatusOf<V>(rules: A2aStatusRules<V>): (view: V) => A2aStatus {
  return function a2aStatus(view) {
    const state = rules.state(view);
    const message = rules.messages?.[state]?.(view);
    return message === undefined ? { state } : { state, message };
  };
}
