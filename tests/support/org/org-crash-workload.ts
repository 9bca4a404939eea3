import type { CrashApi, CrashResponse, CrashWorkload } from '../crash/kill-harness.ts';
import { sleep } from '../crash/server-process.ts';
import { SHOP_PRD } from './org-harness.ts';

/** How long all acknowledged projects together may take to settle after the final restart. */
const SETTLE_BUDGET_MS = 60_000;
const TEST_FAULTS = new Set([400, 401, 404, 413, 422]);
const describe = (answer: CrashResponse) => `${answer.status}: ${JSON.stringify(answer.body).slice(0, 1_000)}`;

/**
 * The product org (spec 004) under kill -9: one loop starts projects continuously
 * (`POST /org/projects`, a small PRD) and remembers each one acknowledged (201); 503 and 429
 * are refusals, not losses. Verify: every acknowledged project is there for its user and settles
 * (`done`: the ones cut off resume after the restart), every one of its envelopes is journaled
 * once, its ten handoffs are accepted without a rejection, and each deliverable is at version 1
 * (a turn done twice would have published a second version).
 */
export function orgWorkload(options: { users?: string[]; pauseMs?: number } = {}) {
  const users = options.users ?? ['kill9-org-ada', 'kill9-org-bo'];
  const pauseMs = options.pauseMs ?? 150;
  const acknowledged = new Map<string, { user: string; round: number }>();
  let next = 0;
  let refusals = 0;
  const workload: CrashWorkload & { acknowledged: typeof acknowledged } = {
    name: 'org',
    acknowledged,
    async drive(api: CrashApi, signal: AbortSignal) {
      while (!signal.aborted) {
        const user = users[next++ % users.length]!;
        let answer: CrashResponse;
        try {
          answer = await api.call(user, 'POST', '/org/projects', { prd: SHOP_PRD, sprint_id: `kill9-${api.round}` });
        } catch {
          continue; // killed under us: no answer, nothing acknowledged
        }
        if (TEST_FAULTS.has(answer.status)) throw new Error(`The org workload sent a bad request: ${describe(answer)}`);
        if (answer.status === 201) acknowledged.set(answer.body.project_id as string, { user, round: api.round });
        else refusals++;
        await sleep(pauseMs);
      }
    },
    async verify(api: CrashApi) {
      const deadline = Date.now() + SETTLE_BUDGET_MS;
      for (const [id, { user }] of acknowledged) {
        for (;;) {
          const view = await api.call(user, 'GET', `/org/projects/${id}`);
          if (view.status !== 200) throw new Error(`Acknowledged project ${id} of ${user} is lost: ${describe(view)}`);
          if (view.body.status === 'done') break;
          if (Date.now() > deadline)
            throw new Error(
              `Project ${id} has not settled ${SETTLE_BUDGET_MS} ms after the restart: ${describe(view)}`,
            );
          await sleep(100);
        }
        const view = (await api.call(user, 'GET', `/org/projects/${id}`)).body;
        const accepted = view.handoffs.filter((h: any) => h.state === 'accepted' && h.rejections === 0);
        if (accepted.length !== 10 || view.handoffs.length !== 10)
          throw new Error(
            `Project ${id} settled without its ten accepted handoffs: ${describe({ status: 200, body: view.handoffs })}`,
          );
        const twice = view.deliverables.filter((d: any) => d.version !== 1);
        if (twice.length > 0) throw new Error(`Project ${id} published a deliverable twice: ${JSON.stringify(twice)}`);
        const { body } = await api.call(user, 'GET', `/org/projects/${id}/messages`);
        const ids = (body.messages as { envelope: { message_id: string } }[]).map((m) => m.envelope.message_id);
        if (new Set(ids).size !== ids.length) throw new Error(`Project ${id} journaled an envelope twice: ${ids}`);
      }
    },
    summary: () => `${acknowledged.size} org projects acknowledged, ${refusals} refused`,
  };
  return workload;
}
