import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeBrains } from '../../../../actors/coscientist/agents/claude/claude-brains.ts';
import { ProposalsSchema } from '../../../../actors/coscientist/agents/claude/claude-generation.ts';
import { OFFLINE_BRAINS } from '../../../../actors/coscientist/agents/offline-brains.ts';
import { researchBrainsFor } from '../../../../actors/coscientist/agents/research-brains-for.ts';
import type { AnthropicAccess } from '../../../../actors/models/model-backends.ts';
import { openModelBackends } from '../../../../actors/models/model-backends.ts';
import { openResearch } from '../../../../machines/coscientist/open-research.ts';
import { fakeScientist, promptOf } from '../../../support/coscientist/fake-claude-scientist.ts';
import { goalOf, runGoal, stateWatcher, testServices } from '../../../support/coscientist/research-harness.ts';
import { startFakeModelServer, type FakeModelServer } from '../../../support/models/fake-model-server.ts';
import { fakeServerBackends } from '../../../support/models/fake-server-backends.ts';
import { checkForcedToolRequest } from '../../../support/models/fake-claude-checks.ts';

type Json = Record<string, any>;
let server: FakeModelServer;
/** What the fake answers next: the consistent scientist unless a test swaps it. */
let answer: (body: Json) => ReturnType<ReturnType<typeof fakeScientist>> = fakeScientist();

beforeAll(async () => {
  server = await startFakeModelServer({ anthropic: (body) => answer(body), anthropicRules: checkForcedToolRequest });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.violations.length = 0;
  answer = fakeScientist();
});

const access = (): AnthropicAccess =>
  fakeServerBackends(server).choose<AnthropicAccess>({
    offline: () => {
      throw new Error('offline chosen');
    },
    anthropic: (a) => a,
  });
const bodies = () => server.requests.map((r) => r.body as Json);
const toolsCalled = () => new Set(bodies().map((b) => b.tool_choice.name));

describe('the co-scientist on Claude (fake model server, real wire format)', () => {
  it('runs a goal with every agent making forced tool calls, each answer validated and written', async () => {
    const services = testServices({ brains: claudeBrains(access()) });
    const research = await runGoal('claude-1', services, goalOf({ iterations: 1, hypotheses_per_iteration: 3 }));
    expect(research.run.record.state).toBe('completed');
    expect(server.violations).toEqual([]);
    expect(toolsCalled()).toEqual(
      new Set(['propose_hypotheses', 'submit_review', 'judge_debate', 'evolve_hypotheses', 'write_meta_review']),
    );
    for (const body of bodies()) {
      expect(body.tools).toHaveLength(1);
      expect(body.tool_choice).toEqual({ type: 'tool', name: body.tools[0].name });
    }
    const generate = bodies().find((b) => b.tool_choice.name === 'propose_hypotheses')!;
    expect(generate.tools[0].input_schema).toEqual(z.toJSONSchema(ProposalsSchema, { io: 'input' }));
    const hypotheses = await research.memory.list('hypothesis');
    expect(hypotheses.filter((h) => h.content.origin === 'generation').map((h) => h.content.text)).toEqual([
      expect.stringMatching(/^Claude hypothesis 1/),
      expect.stringMatching(/^Claude hypothesis 2/),
      expect.stringMatching(/^Claude hypothesis 3/),
    ]);
    expect(hypotheses.some((h) => String(h.content.text).startsWith('Claude refinement'))).toBe(true);
    // Each pair judged in both orders: two judge calls per debate, the second with the sides swapped.
    const judged = bodies()
      .filter((b) => b.tool_choice.name === 'judge_debate')
      .map(promptOf);
    const debates = await research.memory.list('debate');
    expect(judged).toHaveLength(2 * debates.length);
    expect(debates.every((d) => d.content.consistent === true)).toBe(true);
    expect((await research.memory.list('match')).length).toBe(debates.length);
    const overview = await research.memory.list('overview');
    expect(overview[0]!.content.text).toBe('Claude overview of iteration 1.');
    const feedback = await research.memory.list('feedback');
    expect(feedback.find((f) => f.content.target_agent === 'GENERATION')!.content).toMatchObject({
      text: 'Propose less explored interventions.',
      weak_criterion: 'novelty',
    });
    expect(services.errors).toEqual([]);
  });

  it('counts a verdict that changes with the order of presentation as no result (position bias)', async () => {
    answer = fakeScientist({ judge: (first) => first.id });
    const research = await runGoal(
      'claude-2',
      testServices({ brains: { ...OFFLINE_BRAINS, RANKING: claudeBrains(access()).RANKING } }),
      goalOf({ iterations: 1, hypotheses_per_iteration: 3 }),
    );
    const debates = await research.memory.list('debate');
    expect(debates.length).toBeGreaterThan(0);
    expect(debates.every((d) => d.content.consistent === false && d.content.winner_id === undefined)).toBe(true);
    expect(await research.memory.list('match')).toEqual([]);
  });

  it.each([
    ['fails the schema', { hypotheses: [{ text: 'no parts' }] }, /propose_hypotheses answer was refused.*schema/],
    [
      'names a part the knowledge base lacks',
      { hypotheses: [{ text: 'x', components: { intervention: 'nope', target: 'nope', mechanism: 'nope' } }] },
      /unknown intervention "nope"/,
    ],
  ])('refuses a GENERATION answer that %s: the task fails and the goal asks the scientist', async (_, input, error) => {
    answer = (body) =>
      body.tool_choice.name === 'propose_hypotheses'
        ? { toolUse: { name: 'propose_hypotheses', input } }
        : fakeScientist()(body);
    const watcher = stateWatcher();
    const services = testServices({ brains: claudeBrains(access()), onState: watcher.onState });
    const awaiting = watcher.reached('awaiting_scientist');
    const research = await openResearch('claude-3', services, goalOf({ iterations: 1, hypotheses_per_iteration: 2 }));
    await awaiting;
    expect(research.run.record.question).toMatch(error);
    expect(await research.memory.list('hypothesis')).toEqual([]);
    await research.close();
  });

  it('is chosen by the model layer: Claude with ANTHROPIC_API_KEY, offline without', () => {
    const offline = researchBrainsFor(openModelBackends({ primaryModel: 'claude-haiku-4-5' }));
    expect(offline).toBe(OFFLINE_BRAINS);
    const claude = researchBrainsFor(fakeServerBackends(server));
    expect(claude).not.toBe(OFFLINE_BRAINS);
    expect(Object.keys(claude).sort()).toEqual(['EVOLUTION', 'GENERATION', 'META_REVIEW', 'RANKING', 'REFLECTION']);
  });
});
