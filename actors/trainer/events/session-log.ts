import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import { CONTEXT_EVENT_TYPES } from '../../../protocol/trainer/event-data.ts';
import type { ContextEvent, SessionEvent } from '../../../protocol/trainer/session-event.ts';
import { SessionTally } from './event-store-totals.ts';

const CONTEXT_TYPES: ReadonlySet<string> = new Set(CONTEXT_EVENT_TYPES);

/** Whether the event goes into the model's context (spec 001 §7.4). */
export const isContextEvent = (event: SessionEvent): event is ContextEvent => CONTEXT_TYPES.has(event.event_type);

/**
 * What memory holds of one session's log: every context event (§7.4) in sequence order,
 * validated once (when read from the journal, or when appended), and the tally of all events
 * (counts, usage). Observability events (`llm_request` prompts, raw responses) are counted, not
 * kept. Built from the journal when the session is first touched, then kept up to date by each
 * append, so a turn never reads the log again.
 */
export class SessionLog {
  /** Every context event, whatever the session's `context_start_sequence`, in sequence order. */
  readonly context: ContextEvent[] = [];
  readonly tally = new SessionTally();
  /** Every artifact of the session by id (the first, should an id repeat), for §12.5 lookups. */
  readonly #artifacts = new Map<string, Artifact>();
  /** The highest sequence number read from the journal: appends up to it are already here. */
  readonly #readUpTo: number;
  #lastSeq: number;
  #reorders = 0;

  /** The log of `events`, the whole journal of the session as read (in order). */
  constructor(events: readonly SessionEvent[]) {
    for (const event of events) {
      this.tally.add(event);
      if (isContextEvent(event)) this.#keep(event, this.context.length);
    }
    this.#readUpTo = events.at(-1)?.sequence_number ?? 0;
    this.#lastSeq = this.#readUpTo;
  }

  /** The highest sequence number held. */
  get lastSeq(): number {
    return this.#lastSeq;
  }

  /**
   * Takes in an event appended after the log was read; one the read already held is ignored.
   * Appends normally arrive in order; one that does not is put in its place.
   */
  add(event: SessionEvent): void {
    const seq = event.sequence_number;
    if (seq <= this.#readUpTo) return;
    this.tally.add(event);
    this.#lastSeq = Math.max(this.#lastSeq, seq);
    if (isContextEvent(event)) this.#keep(event, this.#firstAfter(seq));
  }

  /**
   * How many events were put before others already held (appends that arrived out of order):
   * whatever was built from `context` by index must be built again when this changes.
   */
  get reorders(): number {
    return this.#reorders;
  }

  /** The session's artifact with this id, if it has one. */
  artifact(artifactId: string): Artifact | undefined {
    return this.#artifacts.get(artifactId);
  }

  /** The index of the first context event whose sequence number is above `start` (the context's first). */
  startIndex(start: number): number {
    return start <= 0 ? 0 : this.#firstAfter(start);
  }

  /** The last `limit` tool calls and results, oldest first, whatever the context's start. */
  recentToolEvents(limit: number): ContextEvent[] {
    const found: ContextEvent[] = [];
    for (let i = this.context.length - 1; i >= 0 && found.length < limit; i--) {
      const event = this.context[i] as ContextEvent;
      if (event.event_type === 'tool_call' || event.event_type === 'tool_result') found.push(event);
    }
    return found.reverse();
  }

  /** The context events after `start` (a session's `context_start_sequence`), as a new array. */
  contextAfter(start: number): ContextEvent[] {
    return this.context.slice(this.startIndex(start));
  }

  #keep(event: ContextEvent, at: number): void {
    if (at === this.context.length) this.context.push(event);
    else {
      this.context.splice(at, 0, event);
      this.#reorders += 1;
    }
    if (event.event_type === 'artifact' && !this.#artifacts.has(event.data.artifact_id))
      this.#artifacts.set(event.data.artifact_id, event.data);
  }

  /** Binary search: the first index whose sequence number is above `seq`. */
  #firstAfter(seq: number): number {
    const events = this.context;
    if (events.length === 0 || (events.at(-1) as ContextEvent).sequence_number <= seq) return events.length;
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((events[middle] as ContextEvent).sequence_number <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
