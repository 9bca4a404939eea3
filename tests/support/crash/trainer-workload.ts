import type { CrashApi, CrashWorkload } from './kill-harness.ts';
import { sleep } from './server-process.ts';

export interface TrainerWorkloadOptions {
  /** The users that chat, each in its own loop, one turn at a time (2). */
  users?: string[];
  /** The pause of a user after each answer (200 ms). */
  pauseMs?: number;
  /** How often a turn continues the user's last answered session rather than letting the server choose (0.6). */
  continueShare?: number;
}

/** One turn the server answered 200. */
export interface AnsweredTurn {
  user: string;
  sessionId: string;
  message: string;
}

const TEST_FAULTS = new Set([400, 401, 413]);
const PROMPTS = [
  'Give me a quick chest workout',
  'hello there',
  'How should I warm up?',
  'Plan a short leg day',
  'What did we do last time?',
];

/**
 * Trainer (spec 001) under kill -9: chat turns continuously (`POST /agent/chat`, offline model),
 * each message text unique, remembering each turn answered 200. Verify: each answered message is
 * a `user_message` event of its session, once, and the session's `sequence_number`s are unique
 * and dense from 1.
 */
export function trainerWorkload(options: TrainerWorkloadOptions = {}): CrashWorkload & { answered: AnsweredTurn[] } {
  const users = options.users ?? ['kill9-dee', 'kill9-eli'];
  const pauseMs = options.pauseMs ?? 200;
  const continueShare = options.continueShare ?? 0.6;
  const answered: AnsweredTurn[] = [];
  const lastSession = new Map<string, string>();
  const refused = new Map<number, number>();
  let counter = 0;
  let thisRound = 0;

  async function chatter(api: CrashApi, user: string, signal: AbortSignal) {
    while (!signal.aborted) {
      const n = counter++;
      const message = `${PROMPTS[n % PROMPTS.length]} (kill9 round ${api.round} turn ${n} of ${user})`;
      const body: { message: string; sessionId?: string } = { message };
      const session = lastSession.get(user);
      // Deterministic enough: every few turns let the server pick (latest active or a new one).
      if (session && n % 5 < continueShare * 5) body.sessionId = session;
      let answer;
      try {
        answer = await api.call(user, 'POST', '/agent/chat', body);
      } catch {
        if (signal.aborted) return;
        await sleep(pauseMs);
        continue;
      }
      if (answer.status === 200) {
        const sessionId = answer.body?.sessionId;
        if (typeof sessionId !== 'string')
          throw new Error(
            `POST /agent/chat answered 200 without a sessionId: ${JSON.stringify(answer.body).slice(0, 500)}`,
          );
        answered.push({ user, sessionId, message });
        thisRound += 1;
        lastSession.set(user, sessionId);
      } else if (TEST_FAULTS.has(answer.status)) {
        throw new Error(
          `POST /agent/chat ${JSON.stringify(body)} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
      } else {
        // A session left mid-turn by a kill may refuse (409) or have ended in error: start afresh.
        refused.set(answer.status, (refused.get(answer.status) ?? 0) + 1);
        lastSession.delete(user);
      }
      await sleep(pauseMs);
    }
  }

  return {
    name: 'trainer',
    answered,
    async drive(api, signal) {
      thisRound = 0;
      await Promise.all(users.map((user) => chatter(api, user, signal)));
    },
    async verify(api) {
      if (answered.length === 0) throw new Error('no chat turn was ever answered: the workload tested nothing');
      const sessions = new Map<string, AnsweredTurn[]>();
      for (const turn of answered) sessions.set(turn.sessionId, [...(sessions.get(turn.sessionId) ?? []), turn]);
      for (const [sessionId, turns] of sessions) {
        const user = turns[0]!.user;
        const answer = await api.call(user, 'GET', `/agent/sessions/${sessionId}/events`);
        if (answer.status !== 200)
          throw new Error(
            `GET /agent/sessions/${sessionId}/events (${user}) answered ${answer.status}: ${JSON.stringify(answer.body)}`,
          );
        const events = answer.body.events as {
          sequence_number: number;
          event_type: string;
          data: { message?: string };
        }[];
        const seqs = events.map((e) => e.sequence_number);
        const repeated = seqs.filter((s, i) => seqs.indexOf(s) !== i);
        if (repeated.length > 0)
          throw new Error(`session ${sessionId} repeats sequence numbers ${[...new Set(repeated)].join(', ')}`);
        const sorted = [...seqs].sort((a, b) => a - b);
        if (sorted.some((s, i) => s !== i + 1))
          throw new Error(`session ${sessionId}: sequence numbers are not dense from 1: ${sorted.join(',')}`);
        const messages = events.filter((e) => e.event_type === 'user_message').map((e) => e.data.message);
        for (const turn of turns) {
          const found = messages.filter((m) => m === turn.message).length;
          if (found !== 1)
            throw new Error(
              `session ${sessionId}: the answered message "${turn.message}" is a user_message ${found} times, not once`,
            );
        }
      }
    },
    summary() {
      const others = [...refused].map(([status, n]) => `${n}×${status}`).join(' ');
      return `${answered.length} turns (+${thisRound}) in ${new Set(answered.map((t) => t.sessionId)).size} sessions${others ? ` (refused: ${others})` : ''}`;
    },
  };
}
