/**
 * How a system speaks A2A: which message parts start its work, how its states read as A2A task
 * states, which outputs become artifacts, how a follow-up resumes it and how it is cancelled. A
 * system module declares one in `OpenSystem.a2a`; the runtime serves it at `/a2a/<system>/`.
 */

/** The A2A task states a system's run reads as (spec v1.0 `TaskState`, lower-case). */
export type A2aState = 'submitted' | 'working' | 'input-required' | 'completed' | 'failed' | 'canceled' | 'rejected';

/** What a message carried: its first `data` part and its `text` parts joined by blank lines. */
export interface A2aInput {
  data?: unknown;
  text?: string;
}

/** One output of a run, sent as an artifact with one `data` part; `schema` names its shape. */
export interface A2aArtifact {
  /** Stable across views of one task: an artifact sent again under one name replaces the first. */
  name: string;
  description?: string;
  /** The schema the data follows (`nutrition/weekly_meal_plan`), in the artifact's metadata. */
  schema: string;
  data: unknown;
}

/**
 * An artifact as the run's journal made it: `recordId` is the id of the journal record that
 * produced it (its envelope's message id), so a follower knows which ones it sent whatever else
 * the list holds by then.
 */
export interface A2aProduced extends A2aArtifact {
  recordId: string;
}

/** A task's status: its state, and the message that explains it (a question, a failure). */
export interface A2aStatus {
  state: A2aState;
  message?: string;
}

/** A run as an A2A task sees it: its status and its outputs. */
export interface A2aView extends A2aStatus {
  /** In the order the run produced them. */
  artifacts: readonly A2aArtifact[];
}

/** A skill of the agent card (`inputModes` and `outputModes` default to the card's). */
export interface A2aSkill {
  id: string;
  name: string;
  description: string;
  tags: readonly string[];
  /** Example messages, as a client would send them (JSON of a `data` part, or text). */
  examples: readonly string[];
}

/**
 * A system's A2A mapping. `ref` is the system's own handle on the work of one task (a run id, a
 * session's turn); `contextId` is the run or session the task belongs to.
 *
 * @example
 * const a2a: A2aMapping = { description: 'Echoes', skills: [], parse: (input) => input,
 *   start: async ({ owner }) => ({ ref: 'r1', contextId: 'r1' }), view: async () => ({ state: 'completed', artifacts: [] }),
 *   follow: async () => () => undefined };
 */
export interface A2aMapping {
  description: string;
  skills: readonly A2aSkill[];
  /** Checks a first message before any task exists; throws a `ValidationError` naming the field. */
  parse(input: A2aInput): unknown;
  /** Starts the work of a new task with what `parse` returned; `contextId` is the client's, when it gave one. */
  start(request: { owner: string; request: unknown; contextId?: string }): Promise<{ ref: string; contextId: string }>;
  /** The task's state now, or `undefined` when the system no longer holds it (the task's last saved state answers). */
  view(owner: string, ref: string): Promise<A2aView | undefined>;
  /**
   * Optional: every artifact the run produced so far, each version of one in turn, in the order
   * the run produced them, read from its journal, each named by the record that made it; a stream
   * replays the ones it has not sent (by `recordId`) one by one instead of the view's latest.
   */
  produced?(owner: string, ref: string): Promise<readonly A2aProduced[]>;
  /** Calls `onChange` after each change of the run (a transition, a routed envelope); returns how to stop. */
  follow(owner: string, ref: string, onChange: () => void): Promise<() => void>;
  /** Checks a follow-up before it reaches the task (throws a `ValidationError` naming the field), so bad input is invalid params, not a failed task. */
  checkReply?(input: A2aInput): void;
  /** A follow-up message on an `input-required` task; returns the task's new `ref` if it changed. */
  resume?(owner: string, ref: string, input: A2aInput): Promise<string | void>;
  /** Cancels the work; resolves once `view` reads `canceled`. Absent: the system's tasks are not cancelable. */
  cancel?(owner: string, ref: string): Promise<void>;
}

/** The states after which a task changes no more. */
export const FINAL_STATES: ReadonlySet<A2aState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
