import { randomUUID } from 'node:crypto';
import type { Journal } from '../../runtime/journal.ts';
import type { Store } from '../../runtime/store.ts';
import { safeParseOnce } from '../../../protocol/runtime/parse-once.ts';
import { NotFoundError, ValidationError, toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import { EVENT_DATA_SCHEMAS, type EventDataInputMap, type EventType } from '../../../protocol/trainer/event-data.ts';
import type {
  ContextEvent,
  SessionEvent,
  SessionEventOf,
  StoredSessionEvent,
} from '../../../protocol/trainer/session-event.ts';
import type { AgentSession, DailyMetrics, SessionStatus, SessionSummary } from '../../../protocol/trainer/session.ts';
import type { SequenceRetryOptions } from './event-store-retry.ts';
import { summarizeDays } from './event-store-daily.ts';
import { SessionDocs, newestFirst } from './session-docs.ts';
import type { SessionLog } from './session-log.ts';
import { SessionLogs, type SessionMemoryOptions } from './session-logs.ts';

export interface EventStoreOptions {
  store: Store;
  /** Session events, one partition per session id. */
  journal: Journal<StoredSessionEvent>;
  now?: () => Date;
  newId?: () => string;
  retry?: SequenceRetryOptions;
  /** How many sessions memory holds, and for how long (see `SessionLogs`). */
  memory?: SessionMemoryOptions;
}

/** One event to append. */
export type PendingEvent = {
  [K in EventType]: { type: K; data: EventDataInputMap[K]; durationMs?: number };
}[EventType];

/** A session and its log as memory holds them: what a context is built from. */
export interface SessionContextSource {
  session: AgentSession;
  /** Its context events are `log.context` from `log.startIndex(session.context_start_sequence)` on. */
  log: SessionLog;
}

/** Sessions and their append-only events (spec 001 §7). */
export interface EventStore {
  /** A new `active` session with zero totals and `context_start_sequence` 0 (§12.5). */
  createSession(userId: string, metadata?: Record<string, unknown>): Promise<AgentSession>;
  /** The user's session; another user's session is `undefined`, exactly like a missing one (§7.7). */
  getSession(userId: string, sessionId: string): Promise<AgentSession | undefined>;
  /** The user's sessions, newest first (§10.2 `GET /agent/sessions`, default limit 10). */
  listSessions(userId: string, limit?: number): Promise<AgentSession[]>;
  /**
   * With `sessionId`: that session of the user, whatever its status, so a conversation continues
   * (a missing or foreign one is a 404). Without: the user's most recent `active` session, or a
   * new one (§12.5).
   */
  getOrCreateSession(userId: string, sessionId?: string): Promise<AgentSession>;
  /** Validates `data` against the type's schema and appends it at the session's next sequence number. */
  appendEvent<K extends EventType>(
    sessionId: string,
    type: K,
    data: EventDataInputMap[K],
    durationMs?: number,
  ): Promise<SessionEventOf<K>>;
  /** Validates every event first, then appends them in the given order in one journal write. */
  appendEvents(sessionId: string, pending: readonly PendingEvent[]): Promise<SessionEvent[]>;
  /**
   * Validates the events and records them as the session's next ones: in memory at once (the
   * next context has them), on disk soon, in one write with whatever else is recorded meanwhile.
   * Resolves before they are durable: wait for `durable` before anything that depends on them
   * leaves the process (an answer, a stream event, a write to the user's data).
   */
  recordEvents(sessionId: string, pending: readonly PendingEvent[]): Promise<SessionEvent[]>;
  /** Resolves once every event of the session recorded so far is on disk; rejects if a write failed. */
  durable(sessionId: string): Promise<void>;
  /** Writes every session's recorded events and waits for the writes (before the journal closes). */
  close(): Promise<void>;
  /** Every event of the session in sequence order (the timeline), read from the journal. */
  listEvents(sessionId: string): Promise<SessionEvent[]>;
  /** The context events (§7.4) after the session's `context_start_sequence`, in order. */
  listContextEvents(sessionId: string): Promise<ContextEvent[]>;
  /** The user's session with its log in memory, for building a context; a 404 when missing or foreign. */
  contextSource(userId: string, sessionId: string): Promise<SessionContextSource>;
  /** The last `limit` tool calls and results of the session, whatever its `context_start_sequence`. */
  recentToolEvents(sessionId: string, limit: number): Promise<ContextEvent[]>;
  /** The artifact with this id in the user's session (§12.5), or `undefined`. */
  getArtifact(userId: string, sessionId: string, artifactId: string): Promise<Artifact | undefined>;
  /**
   * Sums the session's `llm_response` events into its totals and sets its status (§7.6, §11.2).
   * Re-summing is idempotent, so a continued session may be ended again.
   */
  endSession(sessionId: string, status: 'completed' | 'error'): Promise<AgentSession>;
  /** Sets the status of the user's session (the session statechart decides which, machines/trainer/session.ts). */
  setStatus(userId: string, sessionId: string, status: SessionStatus): Promise<AgentSession>;
  /**
   * Shows the user's session as `active` for the turn under way, without writing it: the store
   * keeps the status of its last finished turn until `endSession` writes the next.
   */
  beginTurn(userId: string, sessionId: string): Promise<AgentSession>;
  /** Moves the user's session's checkpoint: its context starts after event `sequence` (§7.1). */
  setContextStart(userId: string, sessionId: string, sequence: number): Promise<AgentSession>;
  /** The session with its event counts (§7.8), or `undefined`. */
  getSessionSummary(userId: string, sessionId: string): Promise<SessionSummary | undefined>;
  listSessionSummaries(userId: string, limit?: number): Promise<SessionSummary[]>;
  /** The user's usage per UTC day of session creation, oldest first (§7.8 `agent_daily_metrics`). */
  dailyMetrics(userId: string): Promise<DailyMetrics[]>;
}

/**
 * Creates the event store: sessions are documents in one collection per user, events go to the
 * journal with the session id as partition, so appending never rewrites a session document or
 * another session's events. The sessions being worked on are held in memory (`SessionDocs`,
 * `SessionLogs`): their documents, and their context events and tallies, each validated once,
 * read from the journal only when a session is first touched (after a restart, or once memory
 * dropped it), so a turn's cost does not grow with its session.
 *
 * @example
 * const events = createEventStore({ store, journal });
 * const session = await events.createSession('user-1');
 * await events.appendEvent(session.id, 'user_message', { message: 'Give me a chest workout' });
 */
export function createEventStore(options: EventStoreOptions): EventStore {
  const { store, journal, now = () => new Date(), newId = randomUUID, retry } = options;
  const docs = new SessionDocs(store, options.memory);
  const logs = new SessionLogs({
    journal,
    ...(retry ? { retry } : {}),
    ...(options.memory ? { memory: options.memory } : {}),
  });

  async function requireSession(sessionId: string): Promise<AgentSession> {
    const session = await docs.byId(sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    return session;
  }

  async function ownSession(userId: string, sessionId: string): Promise<AgentSession> {
    const session = await docs.get(userId, sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    return session;
  }

  /** Checks an event's data (frozen once checked: memory shares it) and makes its stored record. */
  function recordOf(type: EventType, data: unknown, durationMs: number | undefined): StoredSessionEvent {
    const parsed = safeParseOnce(EVENT_DATA_SCHEMAS[type], data);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues).map((issue) => ({
        ...issue,
        path: issue.path === '' ? 'data' : `data.${issue.path}`,
      }));
      throw new ValidationError(`The data of a ${type} event is invalid.`, issues);
    }
    return {
      id: newId(),
      event_type: type,
      timestamp: now().toISOString(),
      duration_ms: durationMs === undefined ? null : Math.max(0, Math.round(durationMs)),
      data: parsed.data,
    } as StoredSessionEvent;
  }

  /** Checks the events, then records them (see `SessionLogs.record`); `now` when the caller awaits their write. */
  async function record(sessionId: string, pending: readonly PendingEvent[], options: { now?: boolean } = {}) {
    const records = pending.map((event) => recordOf(event.type, event.data, event.durationMs));
    await requireSession(sessionId);
    return logs.record(sessionId, records, options);
  }

  const api: EventStore = {
    async createSession(userId, metadata = {}) {
      const at = now().toISOString();
      return docs.create({
        id: newId(),
        user_id: userId,
        created_at: at,
        updated_at: at,
        context_start_sequence: 0,
        total_tokens: 0,
        cached_tokens: 0,
        total_cost_cents: 0,
        status: 'active',
        metadata,
      });
    },

    getSession: (userId, sessionId) => docs.get(userId, sessionId),

    async listSessions(userId, limit = 10) {
      return newestFirst(await docs.list(userId)).slice(0, Math.max(0, limit));
    },

    async getOrCreateSession(userId, sessionId) {
      if (sessionId !== undefined) return ownSession(userId, sessionId);
      return (await docs.latestActive(userId)) ?? api.createSession(userId);
    },

    async appendEvent(sessionId, type, data, durationMs) {
      const pending = { type, data, ...(durationMs === undefined ? {} : { durationMs }) } as PendingEvent;
      const [event] = await (await record(sessionId, [pending], { now: true })).written;
      return event as SessionEventOf<typeof type>;
    },

    async appendEvents(sessionId, pending) {
      if (pending.length === 0) return [];
      return (await record(sessionId, pending, { now: true })).written;
    },

    async recordEvents(sessionId, pending) {
      if (pending.length === 0) return [];
      const { events, written } = await record(sessionId, pending);
      written.catch(() => undefined); // a failure is heard through `durable`
      return events;
    },

    durable: (sessionId) => logs.durable(sessionId),

    close: () => logs.flush(),

    listEvents: async (sessionId) => {
      await requireSession(sessionId);
      return logs.read(sessionId);
    },

    async listContextEvents(sessionId) {
      const session = await requireSession(sessionId);
      return (await logs.of(sessionId)).contextAfter(session.context_start_sequence);
    },

    async contextSource(userId, sessionId) {
      const session = await ownSession(userId, sessionId);
      return { session, log: await logs.of(sessionId) };
    },

    async recentToolEvents(sessionId, limit) {
      await requireSession(sessionId);
      return (await logs.settledLog(sessionId)).recentToolEvents(limit);
    },

    async getArtifact(userId, sessionId, artifactId) {
      if ((await docs.get(userId, sessionId)) === undefined) return undefined;
      return (await logs.settledLog(sessionId)).artifact(artifactId);
    },

    async endSession(sessionId, status) {
      const { user_id: userId } = await requireSession(sessionId);
      const totals = (await logs.of(sessionId)).tally.totals();
      return docs.update(userId, sessionId, (session) => {
        if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
        return {
          ...session,
          status,
          total_tokens: totals.total_tokens,
          cached_tokens: totals.cached_tokens,
          total_cost_cents: totals.total_cost_cents,
          // The session record has no column for the hit rate (§11.2), so it rides in metadata.
          metadata: { ...session.metadata, cache_hit_rate: totals.cache_hit_rate },
          updated_at: now().toISOString(),
        };
      });
    },

    setStatus: (userId, sessionId, status) => change(userId, sessionId, { status }),

    beginTurn: (userId, sessionId) => docs.markActive(userId, sessionId, now().toISOString()),

    setContextStart: (userId, sessionId, sequence) =>
      change(userId, sessionId, { context_start_sequence: Math.max(0, Math.floor(sequence)) }),

    async getSessionSummary(userId, sessionId) {
      const session = await api.getSession(userId, sessionId);
      return session === undefined ? undefined : withCounts(session);
    },

    listSessionSummaries: async (userId, limit = 10) =>
      Promise.all((await api.listSessions(userId, limit)).map(withCounts)),

    async dailyMetrics(userId) {
      return summarizeDays(userId, await docs.list(userId));
    },
  };

  /** What the session's log counts, of the events on disk (a view leaves the process). */
  async function withCounts(session: AgentSession): Promise<SessionSummary> {
    return { ...session, ...(await logs.settledLog(session.id)).tally.counts() };
  }

  function change(userId: string, sessionId: string, fields: Partial<AgentSession>): Promise<AgentSession> {
    return docs.update(userId, sessionId, (session) => {
      if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
      return { ...session, ...fields, updated_at: now().toISOString() };
    });
  }

  return api;
}
