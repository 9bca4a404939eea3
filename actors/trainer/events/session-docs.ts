import { BoundedCache } from '../../runtime/bounded-cache.ts';
import { KeyedQueue } from '../../runtime/keyed-queue.ts';
import { ReadThroughCache } from '../../runtime/read-through-cache.ts';
import type { Store } from '../../runtime/store.ts';
import { deepFreeze } from '../../../protocol/runtime/parse-once.ts';
import { NotFoundError } from '../../../protocol/runtime/runtime-error.ts';
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
  /** By session id (a session's id names it whoever owns it). */
  readonly #docs: ReadThroughCache<AgentSession>;
  /** Per user: the ids and creation times of their active sessions, in creation order. */
  readonly #active: BoundedCache<string, Map<string, string>>;
  /** Bumped by every write, so that a list that overlapped one does not index. */
  #writes = 0;
  /**
   * By session id: the document as the store holds it (what its last write or read found), so an
   * update changes it and writes it without reading its file first. Kept apart from `#docs`,
   * which may show a turn's session as `active` without that being stored.
   */
  readonly #stored: BoundedCache<string, AgentSession>;
  /** Per session: its updates, one at a time, each changing what the one before stored. */
  readonly #updating = new KeyedQueue();

  constructor(
    private readonly store: Store,
    options: SessionMemoryOptions = {},
  ) {
    const bounds = {
      maxEntries: options.maxSessions ?? 1000,
      idleMs: options.idleMs ?? 10 * 60_000,
      ...(options.now ? { now: options.now } : {}),
    };
    this.#docs = new ReadThroughCache(bounds);
    this.#active = new BoundedCache(bounds);
    this.#stored = new BoundedCache(bounds);
  }

  /** The session, whoever owns it; undefined when there is none. */
  async byId(sessionId: string): Promise<AgentSession | undefined> {
    const held = this.#docs.held(sessionId);
    if (held) return held;
    const owner = await this.store.collection<{ user_id: string }>(OWNERS).get(sessionId);
    return owner === undefined ? undefined : this.get(owner.user_id, sessionId);
  }

  /** The user's session; another user's is undefined, like a missing one. */
  async get(userId: string, sessionId: string): Promise<AgentSession | undefined> {
    const held = this.#docs.held(sessionId);
    if (held) return held.user_id === userId ? held : undefined;
    const collection = this.store.collection<AgentSession>(sessionsOf(userId));
    // Kept under the session id only when it is this user's (it is in their collection).
    return this.#docs.get(sessionId, async () => {
      const writes = this.#writes;
      const doc = await collection.get(sessionId);
      if (doc === undefined) return undefined;
      const read = freeze(doc);
      // What the store holds, unless a write overlapped the read (it may be older than that write's).
      if (writes === this.#writes) this.#stored.set(sessionId, read);
      return read;
    });
  }

  /** Stores a new session: its owner first, so a session document is never reachable without it. */
  async create(session: AgentSession): Promise<AgentSession> {
    this.#writes += 1;
    const created = await this.#docs.write(session.id, async () => {
      await this.store.collection<{ user_id: string }>(OWNERS).put(session.id, { user_id: session.user_id });
      await this.store.collection<AgentSession>(sessionsOf(session.user_id)).put(session.id, session);
      return this.#stored.set(session.id, freeze(session));
    });
    return this.#indexed(created as AgentSession);
  }

  /** Changes the user's session with `change` (atomically in the store) and returns what was stored. */
  async update(
    userId: string,
    sessionId: string,
    change: (session: AgentSession | undefined) => AgentSession,
  ): Promise<AgentSession> {
    this.#writes += 1;
    const collection = this.store.collection<AgentSession>(sessionsOf(userId));
    const stored = await this.#docs.write(sessionId, () =>
      this.#updating.run(sessionId, async () => {
        const known = this.#stored.get(sessionId);
        this.#stored.delete(sessionId); // unknown until this write is done (it may fail)
        let written: AgentSession;
        if (known !== undefined && known.user_id === userId) {
          // The store holds `known`: the change is written whole, with no read of the file.
          written = change(known);
          await collection.put(sessionId, written);
        } else written = await collection.update(sessionId, change);
        return this.#stored.set(sessionId, freeze(written));
      }),
    );
    return this.#indexed(stored as AgentSession);
  }

  /**
   * Shows the user's session as `active` while a turn works on it, in memory only: the store keeps
   * the status of the session's last finished turn until the turn ends (`update`), so a turn costs
   * one write of its session, not two. After a crash mid-turn the session reads as that turn left
   * it before, which nothing acknowledged contradicts.
   */
  async markActive(userId: string, sessionId: string, at: string): Promise<AgentSession> {
    const session = await this.get(userId, sessionId);
    if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
    const active = freeze({ ...session, status: 'active', updated_at: at });
    this.#docs.hold(sessionId, active);
    return this.#indexed(active);
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

  /** Keeps the user's index of active sessions (if held) up to date with a session just written. */
  #indexed(session: AgentSession): AgentSession {
    const active = this.#active.peek(session.user_id);
    if (active) {
      if (session.status === 'active') active.set(session.id, session.created_at);
      else active.delete(session.id);
    }
    return session;
  }
}

/** Sessions handed out are shared: frozen, so no caller can change what memory holds. */
const freeze = (session: AgentSession): AgentSession => deepFreeze(session);
