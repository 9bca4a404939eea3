import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';
import type { CrashApi, CrashWorkload } from './kill-harness.ts';
import { sleep } from './server-process.ts';

export interface NutritionWorkloadOptions {
  /** The users that create pipelines, in turn (3). */
  users?: string[];
  /** Creators running at once (1). */
  concurrency?: number;
  /** The pause of a creator after each answer (200 ms), so the machine is not swamped. */
  pauseMs?: number;
  /** How long `verify` waits for every run to reach `output_ready` (90 s). */
  settleTimeoutMs?: number;
}

/** Answers that show the request itself was wrong: the test is broken, not the server. */
const TEST_FAULTS = new Set([400, 401, 404, 413]);

/**
 * Nutrition (spec 000) under kill -9: creates pipelines continuously with a valid intake and
 * remembers each `pipeline_run_id` answered 201. Verify: each one reaches `output_ready` and its
 * messages have unique `message_id`s.
 */
export function nutritionWorkload(
  options: NutritionWorkloadOptions = {},
): CrashWorkload & { acknowledged: Map<string, string> } {
  const users = options.users ?? ['kill9-ada', 'kill9-bo', 'kill9-cy'];
  const concurrency = options.concurrency ?? 1;
  const pauseMs = options.pauseMs ?? 200;
  const settleTimeoutMs = options.settleTimeoutMs ?? 90_000;
  /** pipeline_run_id -> user, of every 201. */
  const acknowledged = new Map<string, string>();
  const refused = new Map<number, number>();
  let next = 0;
  let thisRound = 0;

  async function creator(api: CrashApi, signal: AbortSignal) {
    while (!signal.aborted) {
      const user = users[next++ % users.length]!;
      let answer;
      try {
        answer = await api.call(user, 'POST', '/pipelines', structuredClone(VALID_PAYLOADS.intake_data));
      } catch {
        if (signal.aborted) return;
        await sleep(pauseMs); // not an answer: the server is going away
        continue;
      }
      if (answer.status === 201) {
        const id = answer.body?.pipeline_run_id;
        if (typeof id !== 'string')
          throw new Error(`POST /pipelines answered 201 without a pipeline_run_id: ${JSON.stringify(answer.body)}`);
        acknowledged.set(id, user);
        thisRound += 1;
      } else if (TEST_FAULTS.has(answer.status)) {
        throw new Error(`POST /pipelines answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      } else {
        refused.set(answer.status, (refused.get(answer.status) ?? 0) + 1);
      }
      await sleep(pauseMs);
    }
  }

  return {
    name: 'nutrition',
    acknowledged,
    async drive(api, signal) {
      thisRound = 0;
      await Promise.all(Array.from({ length: concurrency }, () => creator(api, signal)));
    },
    async verify(api) {
      if (acknowledged.size === 0) throw new Error('no pipeline was ever acknowledged: the workload tested nothing');
      const deadline = Date.now() + settleTimeoutMs;
      const pending = new Map(acknowledged);
      let last = new Map<string, unknown>();
      while (pending.size > 0) {
        for (const [id, user] of pending) {
          const view = await api.call(user, 'GET', `/pipelines/${id}`);
          if (view.status !== 200)
            throw new Error(
              `GET /pipelines/${id} (answered 201 to ${user}) answered ${view.status}: ${JSON.stringify(view.body)}`,
            );
          const state = view.body.state;
          if (state === 'output_ready') pending.delete(id);
          else if (state === 'error' || state === 'paused_physician')
            throw new Error(
              `pipeline ${id} settled in ${state}, not output_ready: ${JSON.stringify(view.body).slice(0, 2_000)}`,
            );
          else last.set(id, state);
        }
        if (pending.size === 0) break;
        if (Date.now() > deadline) {
          const states = [...pending.keys()].slice(0, 20).map((id) => `${id}: ${String(last.get(id))}`);
          throw new Error(
            `${pending.size} of ${acknowledged.size} acknowledged pipelines did not reach output_ready within ${settleTimeoutMs} ms:\n${states.join('\n')}`,
          );
        }
        last = new Map();
        await sleep(250);
      }
      for (const [id, user] of acknowledged) {
        const answer = await api.call(user, 'GET', `/pipelines/${id}/messages`);
        if (answer.status !== 200) throw new Error(`GET /pipelines/${id}/messages answered ${answer.status}`);
        const ids = (answer.body.messages as { message_id: string }[]).map((m) => m.message_id);
        const repeated = ids.filter((m, i) => ids.indexOf(m) !== i);
        if (repeated.length > 0)
          throw new Error(`pipeline ${id} lists message ids more than once: ${[...new Set(repeated)].join(', ')}`);
      }
    },
    summary() {
      const others = [...refused].map(([status, n]) => `${n}×${status}`).join(' ');
      return `${acknowledged.size} pipelines (+${thisRound})${others ? ` (refused: ${others})` : ''}`;
    },
  };
}
