import { afterEach, describe, expect, it } from 'vitest';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

describe('a response names an open request sent to its sender (over HTTP)', () => {
  it('refuses a response naming no open request with 422 unknown_correlation, and takes one naming its request once', async () => {
    const rt = await startRuntime({ modules: (await loadSystemModules()).filter((m) => m.name === 'org') });
    started.push(rt);
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await expect
      .poll(async () => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status, { timeout: 15_000 })
      .toBe('done');
    const messages = async () => (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body.messages;
    const response = (related: string, seed: string) =>
      orgMessage({
        from: 'frontend',
        to: 'chief-orchestration',
        type: 'response',
        priority: 'low',
        payload: { task_id: 'ext', content: { kind: 'task_result', status: 'done' } },
        related: [related],
        prdId: id,
        sprintId: 'x',
        seed: [seed],
        at: Date.now(),
      });
    const bogus = response('no-such-request', 'bogus');
    const refused = await rt.call('ada', 'POST', '/org/messages', bogus);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('unknown_correlation');
    expect(refused.body.error.issues[0].path).toBe('context.related_messages');
    // An open request from the chief to frontend, then its answer: taken once, refused the second time.
    const ask = orgMessage({
      from: 'chief-orchestration',
      to: 'frontend',
      type: 'request',
      priority: 'low',
      payload: { task_id: 'ext', content: { kind: 'status_check' } },
      prdId: id,
      sprintId: 'x',
      seed: ['ask'],
      at: Date.now(),
    });
    expect((await rt.call('ada', 'POST', '/org/messages', ask)).status).toBe(202);
    // frontend answers it itself (it has no such task): a second answer names no open request.
    await expect
      .poll(async () =>
        (await messages()).some(
          (m: any) =>
            m.envelope.source_agent === 'frontend' && m.envelope.context.related_messages?.[0] === ask.message_id,
        ),
      )
      .toBe(true);
    const late = await rt.call('ada', 'POST', '/org/messages', response(ask.message_id, 'late'));
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('unknown_correlation');
    // Journaled as refused, with its code and field, delivered to nobody.
    expect((await messages()).filter((m: any) => m.envelope.message_id === bogus.message_id)).toEqual([
      {
        envelope: bogus,
        ack: {},
        refusal: { code: 'unknown_correlation', field: 'context.related_messages', message: expect.any(String) },
      },
    ]);
  });
});
