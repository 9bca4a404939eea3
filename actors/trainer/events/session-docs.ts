import { BoundedCache } from '../../runtime/bounded-cache.ts';
import type { Store } from '../../runtime/store.ts';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import type { SessionMemoryOptions } from './session-logs.ts';

const OWNERS = 'trainer/session-owners';
const sessionsOf = (userId: string) => `trainer/sessions/${userId}`;

/** Newest first; on equal timestamps the later-created session (listed later) first. */
export function newestFirst(sessions: readonly AgentSession[]): AgentSession[] {
  return sessions
    .map((session, index) => ({ session, index }))
    .sort((a, b) => b.session.created_at.localeCompare(a.session.created_at) || b.index - a.index)
    .map(({ session }) => session);
}

/**
 * The session documents (one collection per user, `trainer/sessions/<user>`, and the owner of
 * each session in `trainer/session-owners`), with the recently used ones in memory. Every write
 * to them goes through here, so what memory holds is what the store holds. A user's `active`
 * sessions are indexed in memory once their list has been read, so finding the latest one
 * (a chat without a session id) does not read every session of the user again.
 */
export class SessionDocs {
  readonly #docs: BoundedCache<string, AgentSession>;
  /** Per user: the ids and creation times of their active sessions, in creation order. */
  readonly #active: BoundedCache<string, Map<string, string>>;
  /** Bumped by every write, so that a read that overlapped one is not kept. */
  #writes = 0;

  constructor(
    private readonly store: Store,
    options: SessionMemoryOptions = {},
  ) {
    const bounds = {
      maxEntries: options.maxSessions ?? 1000,
      idleMs: options.idleMs ?? 10 * 60_000,
      ...(options.now ? { now: options.now } : {}),
    };
    this.#docs = new BoundedCache(bounds);
    this.#active = new BoundedCache(bounds);
  }

  /** The session, whoever owns it; undefined when there is none. */
  async byId(sessionId: string): Promise<AgentSession | undefined> {
    const held = this.#docs.get(sessionId);
    if (held) return held;
    const owner = await this.store.collection<{ user_id: string }>(OWNERS).get(sessionId);
    return owner === undefined ? undefined : this.get(owner.user_id, sessionId);
  }

  /** The user's session; another user's is undefined, like a missing one. */
  async get(userId: string, sessionId: string): Promise<AgentSession | undefined> {
    const held = this.#docs.get(sessionId);
    if (held) return held.user_id === userId ? held : undefined;
    const writes = this.#writes;
    const doc = await this.store.collection<AgentSession>(sessionsOf(userId)).get(sessionId);
    if (doc === undefined) return undefined;
    const frozen = freeze(doc);
    if (writes === this.#writes) this.#docs.set(sessionId, frozen);
    return frozen;
  }

  /** Stores a new session: its owner first, so a session document is never reachable without it. */
  async create(session: AgentSession): Promise<AgentSession> {
    this.#writes += 1;
    await this.store.collection<{ user_id: string }>(OWNERS).put(session.id, { user_id: session.user_id });
    await this.store.collection<AgentSession>(sessionsOf(session.user_id)).put(session.id, session);
    return this.#keep(session);
  }

  /** Changes the user's session with `change` (atomically in the store) and returns what was stored. */
  async update(
    userId: string,
    sessionId: string,
    change: (session: AgentSession | undefined) => AgentSession,
  ): Promise<AgentSession> {
    this.#writes += 1;
    const stored = await this.store.collection<AgentSession>(sessionsOf(userId)).update(sessionId, change);
    return this.#keep(stored);
  }

  /** Every session of the user, read from the store (also refreshes the index of active ones). */
  async list(userId: string): Promise<AgentSession[]> {
    const writes = this.#writes;
    const sessions = await this.store.collection<AgentSession>(sessionsOf(userId)).list();
    if (writes === this.#writes) {
      const active = new Map<string, string>();
      for (const session of sessions) if (session.status === 'active') active.set(session.id, session.created_at);
      this.#active.set(userId, active);
    }
    return sessions;
  }

  /** The user's most recent `active` session (spec 001 §12.5), or undefined. */
  async latestActive(userId: string): Promise<AgentSession | undefined> {
    let active = this.#active.get(userId);
    if (active === undefined) {
      const sessions = await this.list(userId);
      return newestFirst(sessions).find((session) => session.status === 'active');
    }
    for (;;) {
      let latest: [string, string] | undefined;
      // Later entries were created later: on equal times they win.
      for (const entry of active) if (latest === undefined || entry[1] >= latest[1]) latest = entry;
      if (latest === undefined) return undefined;
      const session = await this.get(userId, latest[0]);
      if (session?.status === 'active') return session;
      active = this.#active.get(userId);
      if (active === undefined) return this.latestActive(userId);
      active.delete(latest[0]); // ended meanwhile, or gone
    }
  }

  #keep(session: AgentSession): AgentSession {
    const frozen = freeze(session);
    this.#docs.set(session.id, frozen);
    const active = this.#active.peek(session.user_id);
    if (active) {
      if (session.status === 'active') active.set(session.id, session.created_at);
      else active.delete(session.id);
    }
    return frozen;
  }
}

/** Sessions handed out are shared: frozen, so no caller can change what memory holds. */
function freeze(session: AgentSession): AgentSession {
  Object.freeze(session.metadata);
  return Object.freeze(session);
}
