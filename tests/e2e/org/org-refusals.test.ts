import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

/* Refused at admission, journaled as refused: knowledge_graph_refs checked before routing, and a restart hands nothing refused over. */

type Rt = Awaited<ReturnType<typeof startRuntime>>;
const open: Rt[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((rt) => rt.stop(false).catch(() => undefined)));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function start(dir?: string) {
  const modules = (await loadSystemModules()).filter((m) => m.name === 'org');
  const rt = await startRuntime({ modules }, dir);
  if (!dir) dirs.push(rt.dir);
  open.push(rt);
  return rt;
}

const statusOf = async (rt: Rt, id: string) => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status;
const settled = (rt: Rt, id: string) =>
  expect.poll(() => statusOf(rt, id), { timeout: 20_000, interval: 50 }).toBe('done');
const messagesOf = async (rt: Rt, id: string) =>
  (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body.messages as any[];

/** chief-orchestration asks frontend for a status, citing `refs` (a request: it needs an ack and an answer). */
const ask = (id: string, refs: string[], seed: string) =>
  orgMessage({
    from: 'chief-orchestration',
    to: 'frontend',
    type: 'request',
    priority: 'low',
    payload: { task_id: `ask-${seed}`, content: { kind: 'status_check' } },
    prdId: id,
    sprintId: 'x',
    knowledgeRefs: refs,
    seed: [seed],
    at: Date.now(),
  });

describe('refusals at admission, journaled (over HTTP)', () => {
  it('refuses a message citing a node the knowledge graph lacks with 422 naming context.knowledge_graph_refs, and takes one citing an existing node', async () => {
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id);
    const missing = ask(id, [`${id}:stories:v1`, 'no-such-node'], 'missing');
    const refused = await rt.call('ada', 'POST', '/org/messages', missing);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'unknown_reference',
      issues: [{ path: 'context.knowledge_graph_refs', message: expect.stringContaining('"no-such-node"') }],
    });
    const cited = ask(id, [`${id}:stories:v1`], 'cited');
    expect((await rt.call('ada', 'POST', '/org/messages', cited)).status).toBe(202);
    await settled(rt, id);
    const messages = await messagesOf(rt, id);
    expect(messages.filter((m) => m.envelope.message_id === missing.message_id)).toEqual([
      {
        envelope: missing,
        ack: {},
        refusal: { code: 'unknown_reference', field: 'context.knowledge_graph_refs', message: expect.any(String) },
      },
    ]);
    expect(messages.find((m) => m.envelope.message_id === cited.message_id)).toMatchObject({
      ack: { frontend: 'acked' },
    });
    expect(messages.find((m) => m.envelope.message_id === cited.message_id).refusal).toBeUndefined();
    const answers = (of: string) => messages.filter((m) => m.envelope.context.related_messages?.[0] === of);
    expect(answers(cited.message_id)).toHaveLength(1);
    expect(answers(missing.message_id)).toEqual([]);
    // Another user's node is not this user's: the same reference is refused for them.
    const bobs = (await rt.call('bob', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    const foreign = await rt.call('bob', 'POST', '/org/messages', ask(bobs, [`${id}:stories:v1`], 'foreign'));
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('unknown_reference');
  });

  it('hands nothing refused over after a restart: it stays journaled as refused, never delivered', async () => {
    const first = await start();
    const id = (await first.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    // Refused while the project works, then the server stops before it settles.
    const missing = ask(id, ['no-such-node'], 'missing');
    expect((await first.call('ada', 'POST', '/org/messages', missing)).status).toBe(422);
    const stray = orgMessage({
      from: 'growth',
      to: 'database',
      type: 'request',
      priority: 'low',
      payload: { task_id: 'stray', content: { kind: 'status_check' } },
      prdId: id,
      sprintId: 'x',
      seed: ['stray'],
      at: Date.now(),
    });
    expect((await first.call('ada', 'POST', '/org/messages', stray)).status).toBe(422);
    open.splice(open.indexOf(first), 1);
    await first.stop(false);

    const second = await start(first.dir);
    await settled(second, id);
    const messages = await messagesOf(second, id);
    const refused = messages.filter((m) => m.refusal);
    expect(refused.map((m) => [m.envelope.message_id, m.refusal.code, m.refusal.field])).toEqual([
      [missing.message_id, 'unknown_reference', 'context.knowledge_graph_refs'],
      [stray.message_id, 'outside_channel', 'destination_agent'],
    ]);
    const related = new Set(messages.flatMap((m) => m.envelope.context.related_messages ?? []));
    expect(related.has(missing.message_id)).toBe(false);
    expect(related.has(stray.message_id)).toBe(false);
  });
});
