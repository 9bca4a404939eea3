import { randomUUID } from 'node:crypto';
import type { Journal, JournalEntry } from '../../runtime/journal.ts';
import type { Store } from '../../runtime/store.ts';
import {
  DataFileCorruptError,
  NotFoundError,
  ValidationError,
  toErrorIssues,
} from '../../../protocol/runtime/runtime-error.ts';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import {
  CONTEXT_EVENT_TYPES,
  EVENT_DATA_SCHEMAS,
  type EventDataInputMap,
  type EventType,
} from '../../../protocol/trainer/event-data.ts';
import {
  SessionEventSchema,
  type ContextEvent,
  type SessionEvent,
  type SessionEventOf,
  type StoredSessionEvent,
} from '../../../protocol/trainer/session-event.ts';
import type { AgentSession, DailyMetrics, SessionSummary } from '../../../protocol/trainer/session.ts';
import { aggregateUsage, countEvents } from './event-store-totals.ts';
import { retryOnDuplicateSequence, type SequenceRetryOptions } from './event-store-retry.ts';
import { summarizeDays } from './event-store-daily.ts';

export interface EventStoreOptions {
  store: Store;
  /** Session events, one partition per session id. */
  journal: Journal<StoredSessionEvent>;
  now?: () => Date;
  newId?: () => string;
  retry?: SequenceRetryOptions;
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
  /** Every event of the session in sequence order (the timeline). */
  listEvents(sessionId: string): Promise<SessionEvent[]>;
  /** The context events (§7.4) after the session's `context_start_sequence`, in order. */
  listContextEvents(sessionId: string): Promise<ContextEvent[]>;
  /** The artifact with this id in the user's session (§12.5), or `undefined`. */
  getArtifact(userId: string, sessionId: string, artifactId: string): Promise<Artifact | undefined>;
  /**
   * Sums the session's `llm_response` events into its totals and sets its status (§7.6, §11.2).
   * Re-summing is idempotent, so a continued session may be ended again.
   */
  endSession(sessionId: string, status: 'completed' | 'error'): Promise<AgentSession>;
  /** The session with its event counts (§7.8), or `undefined`. */
  getSessionSummary(userId: string, sessionId: string): Promise<SessionSummary | undefined>;
  listSessionSummaries(userId: string, limit?: number): Promise<SessionSummary[]>;
  /** The user's usage per UTC day of session creation, oldest first (§7.8 `agent_daily_metrics`). */
  dailyMetrics(userId: string): Promise<DailyMetrics[]>;
}

const OWNERS = 'trainer/session-owners';
const sessionsOf = (userId: string) => `trainer/sessions/${userId}`;
const CONTEXT_TYPES: ReadonlySet<string> = new Set(CONTEXT_EVENT_TYPES);

/** Newest first; on equal timestamps the later-created session (listed later) first. */
function newestFirst(sessions: AgentSession[]): AgentSession[] {
  return sessions
    .map((session, index) => ({ session, index }))
    .sort((a, b) => b.session.created_at.localeCompare(a.session.created_at) || b.index - a.index)
    .map(({ session }) => session);
}

/**
 * Creates the event store: sessions are documents in one collection per user, events go to the
 * journal with the session id as partition, so appending never rewrites a session document or
 * another session's events. A small owner index maps session ids to users for `appendEvent`.
 *
 * @example
 * const events = createEventStore({ store, journal });
 * const session = await events.createSession('user-1');
 * await events.appendEvent(session.id, 'user_message', { message: 'Give me a chest workout' });
 */
export function createEventStore(options: EventStoreOptions): EventStore {
  const { store, journal, now = () => new Date(), newId = randomUUID, retry } = options;
  const owners = store.collection<{ user_id: string }>(OWNERS);
  const ownerCache = new Map<string, string>();

  async function ownerOf(sessionId: string): Promise<string> {
    const cached = ownerCache.get(sessionId);
    if (cached !== undefined) return cached;
    const owner = await owners.get(sessionId);
    if (owner === undefined) throw new NotFoundError(`Session ${sessionId}`);
    ownerCache.set(sessionId, owner.user_id);
    return owner.user_id;
  }

  async function requireSession(sessionId: string): Promise<AgentSession> {
    const userId = await ownerOf(sessionId);
    const session = await store.collection<AgentSession>(sessionsOf(userId)).get(sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    return session;
  }

  function toEvent(sessionId: string, entry: JournalEntry<StoredSessionEvent>): SessionEvent {
    const parsed = SessionEventSchema.safeParse({ ...entry.data, session_id: sessionId, sequence_number: entry.seq });
    if (!parsed.success) {
      throw new DataFileCorruptError(`session events ${sessionId}`, `event ${entry.seq}: ${parsed.error.message}`);
    }
    return parsed.data;
  }

  async function listEvents(sessionId: string): Promise<SessionEvent[]> {
    const entries = await journal.read(sessionId);
    return entries.map((entry) => toEvent(sessionId, entry));
  }

  const withCounts = async (session: AgentSession): Promise<SessionSummary> => ({
    ...session,
    ...countEvents(await listEvents(session.id)),
  });

  const api: EventStore = {
    async createSession(userId, metadata = {}) {
      const at = now().toISOString();
      const session: AgentSession = {
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
      };
      // Owner first: a session document is never reachable without its owner entry.
      await owners.put(session.id, { user_id: userId });
      ownerCache.set(session.id, userId);
      await store.collection<AgentSession>(sessionsOf(userId)).put(session.id, session);
      return session;
    },

    getSession: (userId, sessionId) => store.collection<AgentSession>(sessionsOf(userId)).get(sessionId),

    async listSessions(userId, limit = 10) {
      const sessions = await store.collection<AgentSession>(sessionsOf(userId)).list();
      return newestFirst(sessions).slice(0, Math.max(0, limit));
    },

    async getOrCreateSession(userId, sessionId) {
      if (sessionId !== undefined) {
        const session = await api.getSession(userId, sessionId);
        if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
        return session;
      }
      const sessions = await store.collection<AgentSession>(sessionsOf(userId)).list();
      const active = newestFirst(sessions).find((session) => session.status === 'active');
      return active ?? api.createSession(userId);
    },

    async appendEvent(sessionId, type, data, durationMs) {
      const parsed = EVENT_DATA_SCHEMAS[type].safeParse(data);
      if (!parsed.success) {
        const issues = toErrorIssues(parsed.error.issues).map((issue) => ({
          ...issue,
          path: issue.path === '' ? 'data' : `data.${issue.path}`,
        }));
        throw new ValidationError(`The data of a ${type} event is invalid.`, issues);
      }
      await ownerOf(sessionId);
      const record = {
        id: newId(),
        event_type: type,
        timestamp: now().toISOString(),
        duration_ms: durationMs === undefined ? null : Math.max(0, Math.round(durationMs)),
        data: parsed.data,
      } as StoredSessionEvent;
      const entry = await retryOnDuplicateSequence(() => journal.append(sessionId, record), retry);
      return { ...record, session_id: sessionId, sequence_number: entry.seq } as SessionEventOf<typeof type>;
    },

    listEvents: async (sessionId) => {
      await ownerOf(sessionId);
      return listEvents(sessionId);
    },

    async listContextEvents(sessionId) {
      const session = await requireSession(sessionId);
      const events = await listEvents(sessionId);
      return events.filter(
        (event): event is ContextEvent =>
          CONTEXT_TYPES.has(event.event_type) && event.sequence_number > session.context_start_sequence,
      );
    },

    async getArtifact(userId, sessionId, artifactId) {
      if ((await api.getSession(userId, sessionId)) === undefined) return undefined;
      const events = await listEvents(sessionId);
      const found = events.find((event) => event.event_type === 'artifact' && event.data.artifact_id === artifactId);
      return found?.event_type === 'artifact' ? found.data : undefined;
    },

    async endSession(sessionId, status) {
      const userId = await ownerOf(sessionId);
      const totals = aggregateUsage(await listEvents(sessionId));
      return store.collection<AgentSession>(sessionsOf(userId)).update(sessionId, (session) => {
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

    async getSessionSummary(userId, sessionId) {
      const session = await api.getSession(userId, sessionId);
      return session === undefined ? undefined : withCounts(session);
    },

    listSessionSummaries: async (userId, limit = 10) =>
      Promise.all((await api.listSessions(userId, limit)).map(withCounts)),

    async dailyMetrics(userId) {
      return summarizeDays(userId, await store.collection<AgentSession>(sessionsOf(userId)).list());
    },
  };
  return api;
}
