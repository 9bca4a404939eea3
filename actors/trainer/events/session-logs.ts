import { BoundedCache } from '../../runtime/bounded-cache.ts';
import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';
import { SessionLog } from './session-log.ts';

/** How many sessions' logs memory holds, and for how long. */
export interface SessionMemoryOptions {
  /** Sessions kept at most (least recently used dropped first); 1,000 by default. */
  maxSessions?: number;
  /** A session not touched for this long is dropped; 10 minutes by default. */
  idleMs?: number;
  /** Milliseconds now, for the idle limit; `Date.now` by default. */
  now?: () => number;
}

interface Held {
  loading: Promise<SessionLog>;
  ready?: SessionLog;
}

/**
 * The logs of recently touched sessions, in memory (see {@link SessionLog}): a log is read from
 * the journal when its session is first touched (after a restart, or once dropped), and every
 * durable append is added to it. Sessions idle for `idleMs`, or beyond `maxSessions`, are
 * dropped and read again on their next touch, so memory follows the active sessions.
 */
export class SessionLogs {
  readonly #held: BoundedCache<string, Held>;

  constructor(
    private readonly read: (sessionId: string) => Promise<SessionEvent[]>,
    options: SessionMemoryOptions = {},
  ) {
    this.#held = new BoundedCache({
      maxEntries: options.maxSessions ?? 1000,
      idleMs: options.idleMs ?? 10 * 60_000,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  /** The session's log: the one held, or read from the journal now. */
  of(sessionId: string): SessionLog | Promise<SessionLog> {
    const held = this.#held.get(sessionId);
    if (held) return held.ready ?? held.loading;
    const entry: Held = {
      loading: this.read(sessionId).then((events) => new SessionLog(events)),
    };
    entry.loading.then(
      (log) => void (entry.ready = log),
      // A failed read is not kept: the next touch reads again.
      () => void (this.#held.peek(sessionId) === entry && this.#held.delete(sessionId)),
    );
    this.#held.set(sessionId, entry);
    return entry.loading;
  }

  /**
   * Adds a durable append to the session's log if one is held (a log read later finds it in the
   * journal); resolves once the log has it.
   */
  added(sessionId: string, event: SessionEvent): Promise<void> | undefined {
    const held = this.#held.get(sessionId);
    if (held === undefined) return undefined;
    if (held.ready) return void held.ready.add(event);
    return held.loading.then(
      (log) => log.add(event),
      () => undefined,
    );
  }

  /** How many sessions are held. */
  get size(): number {
    return this.#held.size;
  }
}
