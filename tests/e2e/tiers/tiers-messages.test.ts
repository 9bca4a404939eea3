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

describe('POST /tiers/messages (an external Progress Monitor)', () => {
  it('refuses a 2.0.0 message with 400 version_not_supported naming the supported major, and runs nothing', async () => {
    const rt = await runtime();
    const answer = await rt.call('ada', 'POST', '/tiers/messages', await example('tiers-message-v2.json'));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('version_not_supported');
    expect(answer.body.error.message).toMatch(/\b1\b/);
    expect((await rt.call('ada', 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
  });

  it('accepts a newer minor with unknown fields, and refuses an invalid envelope with 400 naming the field', async () => {
    const rt = await runtime();
    const newer = { ...(await example('tiers-message.json')), id: 'ext-minor', version: '1.7.0', trace: { hop: 1 } };
    const accepted = await rt.call('ada', 'POST', '/tiers/messages', newer);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ task_id: expect.any(String), message_id: 'ext-minor' });
    await settledTask(rt, 'ada', accepted.body.task_id);
    const broken = { ...(await example('tiers-message.json')), id: 'ext-broken', timestamp: 'yesterday' };
    const refused = await rt.call('ada', 'POST', '/tiers/messages', broken);
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues.map((i: any) => i.path)).toContain('timestamp');
  }, 60_000);

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

  // Message ids are one namespace (the tiers' routing and dedup key on them): another user's id is
  // refused, never joined to the first user's task, and the first user's task is untouched.
  it("refuses another user's message id with 409 message_id_taken, leaving the first task alone", async () => {
    const rt = await runtime();
    const message = await example('tiers-message.json');
    const ada = await rt.call('ada', 'POST', '/tiers/messages', message);
    expect(ada.status).toBe(202);
    const bob = await rt.call('bob', 'POST', '/tiers/messages', message);
    expect([bob.status, bob.body.error.code]).toEqual([409, 'message_id_taken']);
    expect((await rt.call('bob', 'GET', '/tiers/tasks')).body.tasks).toEqual([]);
    expect((await rt.call('bob', 'GET', `/tiers/tasks/${ada.body.task_id}`)).status).toBe(404);
    await settledTask(rt, 'ada', ada.body.task_id);
    const again = await rt.call('ada', 'POST', '/tiers/messages', message);
    expect([again.status, again.body]).toEqual([202, ada.body]);
  }, 60_000);
});
