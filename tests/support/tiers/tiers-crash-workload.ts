import type { CrashApi, CrashResponse, CrashWorkload } from '../crash/kill-harness.ts';
import { sleep } from '../crash/server-process.ts';
import { example } from './tiers-e2e.ts';

/** What the workload knows of a task the server acknowledged (201, or 202 for a message). */
export interface AcknowledgedTask {
  user: string;
  round: number;
  /** The external message id, when it came through `POST /tiers/messages`. */
  messageId?: string;
}

/** How long all acknowledged tasks together may take to settle after the final restart. */
const SETTLE_BUDGET_MS = 150_000;
const TEST_FAULTS = new Set([400, 401, 404, 413]);
const describe = (answer: CrashResponse) => `${answer.status}: ${JSON.stringify(answer.body).slice(0, 1_000)}`;

/**
 * Tiers (spec 002) under kill -9: one loop submits tasks continuously, in turn a known problem
 * (`POST /tiers/tasks`, the README's example) and an external Monitor's delegation with a fresh
 * id (`POST /tiers/messages`), and remembers each one acknowledged. Verify: every acknowledged
 * task is there for its user and settles (the unfinished ones resume after the restart), its
 * messages have unique ids and start with its own delegation, and an acknowledged message sent
 * again is answered from cache with the same task.
 */
export function tiersWorkload(options: { users?: string[]; pauseMs?: number } = {}) {
  const users = options.users ?? ['kill9-tiers-ada', 'kill9-tiers-bo'];
  const pauseMs = options.pauseMs ?? 250;
  const acknowledged = new Map<string, AcknowledgedTask>();
  let next = 0;
  let refusals = 0;
  const workload: CrashWorkload & { acknowledged: Map<string, AcknowledgedTask> } = {
    name: 'tiers',
    acknowledged,
    async drive(api: CrashApi, signal: AbortSignal) {
      const task = await example('tiers-task.json');
      const message = await example('tiers-message.json');
      while (!signal.aborted) {
        const n = next++;
        const user = users[n % users.length]!;
        const viaMessage = n % 2 === 1;
        const messageId = `kill9-${api.round}-${n}`;
        let answer: CrashResponse;
        try {
          answer = viaMessage
            ? await api.call(user, 'POST', '/tiers/messages', { ...message, id: messageId })
            : await api.call(user, 'POST', '/tiers/tasks', task);
        } catch {
          continue; // killed under us: no answer, nothing acknowledged
        }
        if (TEST_FAULTS.has(answer.status))
          throw new Error(`The tiers workload sent a bad request: ${describe(answer)}`);
        if (answer.status === 201 || answer.status === 202) {
          const record: AcknowledgedTask = { user, round: api.round };
          if (viaMessage) record.messageId = messageId;
          acknowledged.set(answer.body.task_id, record);
        } else refusals++;
        await sleep(pauseMs);
      }
    },
    async verify(api: CrashApi) {
      // The unfinished tasks resume together after the restart and share the sandbox's slots, so
      // on a loaded machine the last can take longer than one request may wait: poll the views
      // within one budget for all, then read each stream, which closes at once on a settled task.
      const deadline = Date.now() + SETTLE_BUDGET_MS;
      for (const [taskId, { user }] of acknowledged) {
        for (;;) {
          const view = await api.call(user, 'GET', `/tiers/tasks/${taskId}`);
          if (view.status !== 200) throw new Error(`Acknowledged task ${taskId} of ${user} is lost: ${describe(view)}`);
          if (view.body.status !== 'working') break;
          if (Date.now() > deadline)
            throw new Error(
              `Task ${taskId} is still working ${SETTLE_BUDGET_MS} ms after the restart: ${describe(view)}`,
            );
          await sleep(250);
        }
      }
      for (const [taskId, { user, messageId }] of acknowledged) {
        const stream = await api.call(user, 'GET', `/tiers/tasks/${taskId}/events?until=settled`);
        if (stream.status !== 200 || !String(stream.body).includes('event: settled'))
          throw new Error(`Task ${taskId} did not settle after the restart: ${describe(stream)}`);
        const { body } = await api.call(user, 'GET', `/tiers/tasks/${taskId}/messages`);
        const ids = (body.messages as { id: string }[]).map((m) => m.id);
        if (new Set(ids).size !== ids.length) throw new Error(`Task ${taskId} journaled a message twice: ${ids}`);
        if (messageId !== undefined) {
          if (ids[0] !== messageId) throw new Error(`Task ${taskId} does not start with ${messageId}: ${ids[0]}`);
          const again = await api.call(user, 'POST', '/tiers/messages', {
            ...(await example('tiers-message.json')),
            id: messageId,
          });
          if (again.status !== 202 || again.body.task_id !== taskId)
            throw new Error(`The duplicate of ${messageId} was not answered from cache: ${describe(again)}`);
        }
      }
    },
    summary: () => `${acknowledged.size} tiers tasks acknowledged, ${refusals} refused`,
  };
  return workload;
}
