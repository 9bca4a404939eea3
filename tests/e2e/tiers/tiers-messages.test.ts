import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startRuntime } from '../../support/runtime-harness.ts';
import { example, settledTask, type TiersRuntime } from '../../support/tiers/tiers-e2e.ts';

const dirs: string[] = [];
const runtimes: TiersRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.stop(false)));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function runtime(dir?: string) {
  const rt = await startRuntime({}, dir);
  runtimes.push(rt);
  if (!dir) dirs.push(rt.dir);
  return rt;
}

// Embedded only: it restarts the runtime on its DATA_DIR. The other external-message tests are in
// tests/support/tiers/tiers-http-suite.ts, run on both hosts.
describe('POST /tiers/messages (an external Progress Monitor)', () => {
  it('runs a delegation to the Architect as a task, and answers a duplicate id from cache across a restart', async () => {
    const first = await runtime();
    const message = await example('tiers-message.json');
    const accepted = await first.call('ada', 'POST', '/tiers/messages', message);
    expect(accepted.status).toBe(202);
    const { task_id } = accepted.body;
    const { view } = await settledTask(first, 'ada', task_id);
    expect(view.status).toBe('success');
    const messages = (await first.call('ada', 'GET', `/tiers/tasks/${task_id}/messages`)).body.messages;
    expect(messages[0]).toMatchObject({ id: message.id, source_tier: 'PROGRESS_MONITOR' });
    const again = await first.call('ada', 'POST', '/tiers/messages', message);
    expect([again.status, again.body]).toEqual([202, accepted.body]);
    await first.stop(false);
    runtimes.splice(runtimes.indexOf(first), 1);

    const second = await runtime(first.dir);
    const replayed = await second.call('ada', 'POST', '/tiers/messages', message);
    expect([replayed.status, replayed.body]).toEqual([202, accepted.body]);
    // Nothing ran again: the same messages, the same outcome, still one task.
    expect((await second.call('ada', 'GET', `/tiers/tasks/${task_id}/messages`)).body.messages).toEqual(messages);
    expect((await second.call('ada', 'GET', `/tiers/tasks/${task_id}`)).body.outcome).toEqual(view.outcome);
    expect((await second.call('ada', 'GET', '/tiers/tasks')).body.tasks.map((t: any) => t.task_id)).toEqual([task_id]);
  }, 90_000);
});
