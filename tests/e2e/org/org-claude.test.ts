import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DELIVERABLE_SCHEMAS } from '../../../protocol/org/deliverables.ts';
import { loadSystemModules } from '../../../server/system-modules.ts';
import { checkForcedToolRequest } from '../../support/models/fake-claude-checks.ts';
import { startFakeModelServer, type FakeModelServer } from '../../support/models/fake-model-server.ts';
import { fakeOrgClaude, promptOf } from '../../support/org/fake-claude-org.ts';
import { SHOP_PRD } from '../../support/org/org-harness.ts';
import { startRuntime } from '../../support/runtime-harness.ts';

/* The org's agents on Claude: the real SDK, through the model layer, against the fake model server (real wire format). */

type Json = Record<string, any>;
let server: FakeModelServer;
let answer: (body: Json) => ReturnType<ReturnType<typeof fakeOrgClaude>['answer']>;
beforeAll(async () => {
  server = await startFakeModelServer({ anthropic: (body) => answer(body), anthropicRules: checkForcedToolRequest });
});
afterAll(() => server.close());

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
  server.requests.length = 0;
  server.violations.length = 0;
});

/** The org alone, with ANTHROPIC_API_KEY set and its base URL on the fake server. */
async function start() {
  const modules = (await loadSystemModules()).filter((m) => m.name === 'org');
  const rt = await startRuntime({ modules }, undefined, {
    anthropicApiKey: 'sk-ant-test',
    anthropicBaseUrl: server.url,
  });
  started.push(rt);
  return rt;
}

type Rt = Awaited<ReturnType<typeof start>>;
const statusOf = async (rt: Rt, id: string) => (await rt.call('ada', 'GET', `/org/projects/${id}`)).body.status;
const settled = (rt: Rt, id: string, status: string) =>
  expect.poll(() => statusOf(rt, id), { timeout: 20_000, interval: 50 }).toBe(status);
const bodies = () => server.requests.filter((r) => r.endpoint === 'anthropic').map((r) => r.body as Json);

/** Each tool the producers call, and the deliverable schema its input must pass. */
const TOOLS = {
  submit_stories: DELIVERABLE_SCHEMAS.stories[1],
  submit_api_contract: DELIVERABLE_SCHEMAS.api_contract[1],
  submit_db_schema: DELIVERABLE_SCHEMAS.db_schema[1],
  submit_test_plan: DELIVERABLE_SCHEMAS.test_plan[1],
  submit_ui_plan: DELIVERABLE_SCHEMAS.ui_plan[1],
  submit_deploy_plan: DELIVERABLE_SCHEMAS.deploy_plan[1],
  submit_experiments: DELIVERABLE_SCHEMAS.experiments[1],
} as const;
const TYPE_OF_TOOL: Record<string, string> = {
  submit_stories: 'stories',
  submit_api_contract: 'api_contract',
  submit_db_schema: 'db_schema',
  submit_test_plan: 'test_plan',
  submit_ui_plan: 'ui_plan',
  submit_deploy_plan: 'deploy_plan',
  submit_experiments: 'experiments',
};

describe('the org on Claude (ANTHROPIC_API_KEY, fake model server)', () => {
  it('runs a PRD to done: one forced tool call per deliverable, each answer validated by its schema and handed off', async () => {
    const claude = fakeOrgClaude();
    answer = claude.answer;
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id, 'done');
    expect(server.violations).toEqual([]);
    const calls = bodies().map((b) => b.tool_choice.name as string);
    expect([...calls].sort()).toEqual(Object.keys(TOOLS).sort());
    for (const body of bodies()) {
      const name = body.tool_choice.name as keyof typeof TOOLS;
      expect(body.tool_choice).toEqual({ type: 'tool', name });
      expect(body.tools).toHaveLength(1);
      expect(body.tools[0].input_schema).toEqual(z.toJSONSchema(TOOLS[name], { io: 'input' }));
      expect(body.model).toBe('claude-haiku-4-5');
    }
    // The stories prompt carries the PRD as the user wrote it.
    expect(promptOf(bodies().find((b) => b.tool_choice.name === 'submit_stories')!)).toEqual({
      prd: SHOP_PRD,
      prd_version: 1,
    });
    const view = (await rt.call('ada', 'GET', `/org/projects/${id}`)).body;
    expect(view.handoffs).toHaveLength(10);
    expect(view.handoffs.every((h: any) => h.state === 'accepted' && h.rejections === 0)).toBe(true);
    // What was published is what Claude submitted (its stories are a shopper's, not the offline rules' user's).
    for (const [tool, submitted] of claude.answers) {
      const deliverable = view.deliverables.find((d: any) => d.type === TYPE_OF_TOOL[tool]);
      expect(deliverable?.body, tool).toEqual(submitted.at(-1));
    }
    const stories = view.deliverables.find((d: any) => d.type === 'stories');
    expect(stories.body.stories.every((s: any) => s.as_a === 'shopper')).toBe(true);
  });

  it('hands a rejection’s issues to Claude as fix_issues when the PRD is amended after the contract, then accepts the fix', async () => {
    const claude = fakeOrgClaude();
    answer = claude.answer;
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id, 'done');
    const amended = await rt.call('ada', 'PATCH', `/org/projects/${id}/prd`, {
      features: [{ id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save an item'] }],
    });
    expect(amended.status).toBe(202);
    await settled(rt, id, 'done');
    const contracts = bodies()
      .filter((b) => b.tool_choice.name === 'submit_api_contract')
      .map(promptOf);
    expect(contracts).toHaveLength(2);
    expect(contracts[0]!['fix_issues']).toBeUndefined();
    expect(contracts[1]!['fix_issues']).toEqual([
      { path: 'endpoints', message: expect.stringContaining('no endpoint for story S-wishlist') },
    ]);
    const { handoffs } = (await rt.call('ada', 'GET', `/org/projects/${id}/handoffs`)).body;
    expect(handoffs.find((h: any) => h.handoff_id === 'backend>frontend:api_contract#2')).toMatchObject({
      state: 'accepted',
      rejections: 1,
    });
    expect(server.violations).toEqual([]);
  });

  it('refuses a tool answer that fails its schema: nothing of it is used, the task fails and the user hears of it', async () => {
    const claude = fakeOrgClaude();
    answer = (body) => {
      if (body.tool_choice.name !== 'submit_stories') return claude.answer(body);
      const { stories } = DELIVERABLE_SCHEMAS.stories[1].parse(
        (claude.answer(body) as { toolUse: { input: unknown } }).toolUse.input,
      );
      // The first story lacks as_a: StoriesV1Schema refuses it.
      const [first, ...rest] = stories;
      const { as_a: _dropped, ...partial } = first!;
      return { toolUse: { name: 'submit_stories', input: { prd_version: 1, stories: [partial, ...rest] } } };
    };
    const rt = await start();
    const id = (await rt.call('ada', 'POST', '/org/projects', { prd: SHOP_PRD })).body.project_id as string;
    await settled(rt, id, 'waiting_for_user');
    expect(server.violations).toEqual([]);
    expect(bodies().map((b) => b.tool_choice.name)).toEqual(['submit_stories']);
    const view = (await rt.call('ada', 'GET', `/org/projects/${id}`)).body;
    expect(view.deliverables).toEqual([]);
    expect(view.handoffs).toEqual([]);
    expect(view.escalations).toEqual([
      expect.objectContaining({
        from: 'product',
        status: 'awaiting_user',
        payload: expect.objectContaining({
          conflict_type: 'quality',
          positions: { product: expect.stringContaining('submit_stories answer was refused') },
        }),
      }),
    ]);
    expect(view.escalations[0].payload.positions.product).toContain('stories.0.as_a');
    const { messages } = (await rt.call('ada', 'GET', `/org/projects/${id}/messages`)).body;
    const failed = messages.find(
      (m: any) => m.envelope.source_agent === 'product' && m.envelope.message_type === 'response',
    );
    expect(failed.envelope.payload.content).toMatchObject({
      kind: 'task_result',
      status: 'failed',
      issues: [expect.objectContaining({ path: 'stories.0.as_a' })],
    });
  });
});
