import { BoundedCache } from '../../runtime/bounded-cache.ts';
import type { Journal, JournalEntry } from '../../runtime/journal.ts';
import { safeParseOnce } from '../../../protocol/runtime/parse-once.ts';
import { DataFileCorruptError } from '../../../protocol/runtime/runtime-error.ts';
import {
  SessionEventSchema,
  type SessionEvent,
  type StoredSessionEvent,
} from '../../../protocol/trainer/session-event.ts';
import { DuplicateSequenceError, retryOnDuplicateSequence, type SequenceRetryOptions } from './event-store-retry.ts';
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

interface SessionLogsOptions {
  journal: Journal<StoredSessionEvent>;
  retry?: SequenceRetryOptions;
  memory?: SessionMemoryOptions;
  /**
   * How long recorded events may wait for a write that nobody asked for yet (`durable`,
   * `settled`, a read of the journal, an append that is awaited); 100 ms by default. Until then
   * they are only in memory, which is safe as long as whatever shows them outside the process
   * waits for one of those first (the turn's answer and stream events wait for `durable`, the
   * session's views for `settled`).
   */
  lingerMs?: number;
}

/** A session's events recorded since its last write, all going out in its next one. */
interface Unwritten {
  log: SessionLog;
  records: StoredSessionEvent[];
  events: SessionEvent[];
  timer: ReturnType<typeof setTimeout>;
  written: Promise<SessionEvent[]>;
  settle: { resolve: (events: SessionEvent[]) => void; reject: (error: unknown) => void };
}

const DEFAULT_LINGER_MS = 100;

interface Held {
  loading: Promise<SessionLog>;
  ready?: SessionLog;
}

/** Appends just recorded: their events (in the log already) and their write. */
export interface Recorded {
  events: SessionEvent[];
  /**
   * Resolves once they are on disk, with the rows as the journal numbered them: with the
   * session's next write, which a `record(..., { now: true })`, `durable` or `settled` sends at
   * once and otherwise goes out `lingerMs` after the batch's first event.
   */
  written: Promise<SessionEvent[]>;
}

/**
 * The logs of recently touched sessions, in memory (see {@link SessionLog}), and the way appends
 * reach them and the journal. A log is read from the journal when its session is first touched
 * (after a restart, or once dropped); sessions idle for `idleMs`, or beyond `maxSessions`, are
 * dropped, so memory follows the active sessions.
 *
 * An append is recorded in the log at once, under the sequence number the journal will give it
 * (the journal numbers a partition's appends in the order they are issued, and every append of a
 * session goes through here), and joins the session's next write: everything a turn records
 * goes to disk in one write and one sync, when something waits for it (`durable`, an awaited
 * append, a read of the journal) or `lingerMs` after the first of them. `durable(sessionId)`
 * waits for them all; whatever depends on them waits for it before leaving the process. Should
 * the journal number an append otherwise (another writer, a retry), the log is dropped and read
 * again on the next touch; should a write fail, the log refuses further appends, as the
 * journal's partition does.
 */
export class SessionLogs {
  readonly #held: BoundedCache<string, Held>;
  /** Per session with writes open or under way: all of them settled (kept apart from logs, which may be dropped). */
  readonly #writing = new Map<string, Promise<void>>();
  /** Per session whose write failed: why. It sticks, as the journal partition's failure does, until a restart. */
  readonly #failed = new Map<string, unknown>();
  /** Per session: what it recorded since its last write. */
  readonly #unwritten = new Map<string, Unwritten>();
  /**
   * Per session: why its last write was refused when the refusal does not stick (another writer
   * took the numbers; the log is read again). The next `durable` reports it once, so a turn
   * whose events were not written does not answer as if they were.
   */
  readonly #refused = new Map<string, unknown>();

  constructor(private readonly options: SessionLogsOptions) {
    const memory = options.memory ?? {};
    this.#held = new BoundedCache({
      maxEntries: memory.maxSessions ?? 1000,
      idleMs: memory.idleMs ?? 10 * 60_000,
      ...(memory.now ? { now: memory.now } : {}),
    });
  }

  /** Every event of the session, read from the journal and checked (once: rows come out frozen). */
  async read(sessionId: string): Promise<SessionEvent[]> {
    // What was recorded goes to the journal first: the read comes after it.
    this.#write(sessionId);
    const entries = await this.options.journal.read(sessionId);
    return entries.map((entry) => eventOf(sessionId, entry));
  }

  /** The session's log: the one held, or read from the journal now. */
  of(sessionId: string): SessionLog | Promise<SessionLog> {
    const held = this.#held.get(sessionId);
    if (held) return held.ready ?? held.loading;
    const entry: Held = { loading: this.read(sessionId).then((events) => new SessionLog(events)) };
    entry.loading.then(
      (log) => void (entry.ready = log),
      // A failed read is not kept: the next touch reads again.
      () => this.#drop(sessionId, entry),
    );
    this.#held.set(sessionId, entry);
    return entry.loading;
  }

  /**
   * Records `records` (checked already) as the session's next events, in order: in its log now,
   * in the journal with the session's next write, which takes every event recorded until then
   * (one write and one sync however many times a turn records). That write goes out when
   * something waits for it (`durable`, `now`, a read of the journal) or after `lingerMs`.
   * Throws at once if an earlier write of the session failed.
   */
  async record(
    sessionId: string,
    records: readonly StoredSessionEvent[],
    options: { now?: boolean } = {},
  ): Promise<Recorded> {
    const log = await this.of(sessionId);
    // From here to the batch nothing awaits: the numbers given follow the log's last one.
    if (this.#failed.has(sessionId)) throw this.#failed.get(sessionId);
    const first = log.lastSeq + 1;
    const events = records.map(
      (record, i) => Object.freeze({ ...record, session_id: sessionId, sequence_number: first + i }) as SessionEvent,
    );
    for (const event of events) log.add(event);
    const batch = this.#batchOf(sessionId, log);
    const from = batch.events.length;
    batch.records.push(...records);
    batch.events.push(...events);
    const written = batch.written.then((all) => all.slice(from, from + events.length));
    if (options.now) this.#write(sessionId);
    return { events, written };
  }

  /** Resolves once every append recorded for the session is on disk; rejects if one failed. */
  async durable(sessionId: string): Promise<void> {
    await this.settled(sessionId);
    if (this.#failed.has(sessionId)) throw this.#failed.get(sessionId);
    const refused = this.#refused.get(sessionId);
    if (refused === undefined) return;
    this.#refused.delete(sessionId);
    throw refused;
  }

  /**
   * Sends what the session recorded and resolves once its writes are over, written or not (a
   * view of the session then shows only what is on disk: a failed write drops the log, which is
   * read again).
   */
  async settled(sessionId: string): Promise<void> {
    this.#write(sessionId);
    await this.#writing.get(sessionId);
  }

  /** The session's log once what it recorded is written: for a view that leaves the process. */
  async settledLog(sessionId: string): Promise<SessionLog> {
    await this.settled(sessionId);
    return this.of(sessionId);
  }

  /** Writes what every session recorded and waits for it all (before the journal closes). */
  async flush(): Promise<void> {
    for (const sessionId of [...this.#unwritten.keys()]) this.#write(sessionId);
    await Promise.all(this.#writing.values());
  }

  /** The session's open batch, or a new one that writes itself after `lingerMs`. */
  #batchOf(sessionId: string, log: SessionLog): Unwritten {
    const open = this.#unwritten.get(sessionId);
    if (open?.log === log) return open;
    // Another log of the session (a record that took the log before it was dropped and read
    // again): each batch goes out with its own log; a numbering that then differs from the
    // journal's drops the log once more (see `#write`).
    if (open) this.#write(sessionId);
    let settle!: Unwritten['settle'];
    const written = new Promise<SessionEvent[]>((resolve, reject) => (settle = { resolve, reject }));
    const timer = setTimeout(() => this.#write(sessionId), this.options.lingerMs ?? DEFAULT_LINGER_MS);
    timer.unref?.();
    const batch: Unwritten = { log, records: [], events: [], timer, written, settle };
    this.#unwritten.set(sessionId, batch);
    this.#track(sessionId, written);
    return batch;
  }

  /** Sends the session's open batch to the journal (the journal numbers a partition's appends in the order issued). */
  #write(sessionId: string): void {
    const batch = this.#unwritten.get(sessionId);
    if (!batch) return;
    this.#unwritten.delete(sessionId);
    clearTimeout(batch.timer);
    const { journal, retry } = this.options;
    const { records, events, log, settle } = batch;
    const first = events[0]!.sequence_number;
    const appended =
      records.length === 1
        ? retryOnDuplicateSequence(() => journal.append(sessionId, records[0] as StoredSessionEvent), retry).then(
            (entry) => [entry],
          )
        : retryOnDuplicateSequence(() => journal.appendMany(sessionId, records), retry);
    appended.then(
      (entries) => {
        if (entries.every((entry, i) => entry.seq === first + i)) return settle.resolve(events);
        // Numbered otherwise than foreseen: the log is read again from the journal on the next touch.
        this.#dropLog(sessionId, log);
        settle.resolve(entries.map((entry, i) => ({ ...(events[i] as SessionEvent), sequence_number: entry.seq })));
      },
      (error: unknown) => {
        this.#dropLog(sessionId, log);
        // Another writer took the numbers: the log is read again; any other failure sticks.
        if (!(error instanceof DuplicateSequenceError) && (error as { code?: string }).code !== 'sequence_conflict')
          this.#failed.set(sessionId, error);
        else this.#refused.set(sessionId, error);
        settle.reject(error);
      },
    );
  }

  #track(sessionId: string, written: Promise<unknown>): void {
    const before = this.#writing.get(sessionId);
    const settled = written.then(
      () => undefined,
      () => undefined,
    );
    const all = before ? Promise.all([before, settled]).then(() => undefined) : settled;
    this.#writing.set(sessionId, all);
    void all.then(() => {
      if (this.#writing.get(sessionId) === all) this.#writing.delete(sessionId);
    });
  }

  /** How many sessions are held. */
  get size(): number {
    return this.#held.size;
  }

  #dropLog(sessionId: string, log: SessionLog): void {
    const held = this.#held.peek(sessionId);
    if (held?.ready === log) this.#drop(sessionId, held);
  }

  #drop(sessionId: string, entry: Held): void {
    if (this.#held.peek(sessionId) === entry) this.#held.delete(sessionId);
  }
}

/** A journal entry as a checked event row; a damaged one names its session and sequence number. */
function eventOf(sessionId: string, entry: JournalEntry<StoredSessionEvent>): SessionEvent {
  const row = { ...entry.data, session_id: sessionId, sequence_number: entry.seq };
  const parsed = safeParseOnce(SessionEventSchema, row);
  if (!parsed.success) {
    throw new DataFileCorruptError(`session events ${sessionId}`, `event ${entry.seq}: ${parsed.error.message}`);
  }
  return parsed.data;
}
