import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeArchitect } from '../../../../../actors/tiers/planning/claude-architect.ts';
import { ModelAnswerError } from '../../../../../actors/models/forced-tool-call.ts';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import { PlanSchema, type ArchitectInput, type Plan } from '../../../../../actors/tiers/planning/plan.ts';
import { ModelError } from '../../../../../actors/models/model-error.ts';
import { startFakeClaude, submit, type FakeClaude } from '../../../../support/models/fake-claude.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

let claude: FakeClaude;
beforeAll(async () => {
  claude = await startFakeClaude();
});
afterAll(() => claude.server.close());
beforeEach(() => {
  claude.server.requests.length = 0;
  claude.server.violations.length = 0;
});

const input: ArchitectInput = {
  objective: 'Implement binary search',
  problem: BINARY_SEARCH,
  constraints: ['No recursion'],
};
/** A plan as a model might write it: racing attempts, its own constraints, no 'No recursion'. */
const modelPlan = async (): Promise<Plan> => ({
  ...(await offlineArchitect.plan({ ...input, aggregation_strategy: 'first_success' })),
  constraints: ['Must handle empty arrays'],
});

describe('claudeArchitect', () => {
  it('forces the submit_plan tool, whose input schema is the PlanSchema, and returns the valid plan with tokens', async () => {
    const answer = await modelPlan();
    claude.answer(submit(answer));
    const plan = await claudeArchitect(claude.access).plan(input);
    const [body] = claude.bodies();
    expect(body!['tool_choice']).toEqual({ type: 'tool', name: 'submit_plan' });
    expect(body!['tools']).toEqual([
      expect.objectContaining({ name: 'submit_plan', input_schema: z.toJSONSchema(PlanSchema, { io: 'input' }) }),
    ]);
    expect(JSON.parse(body!['messages'][0].content).problem.function_name).toBe('search');
    expect(claude.server.violations).toEqual([]);
    expect(plan.subtasks).toEqual(answer.subtasks);
    expect(plan.aggregation_strategy).toBe('first_success');
    expect(plan.constraints).toEqual(['No recursion', 'Must handle empty arrays']);
    expect(plan.tokens!.input).toBeGreaterThan(0);
    expect(plan.tokens!.output).toBeGreaterThan(0);
  });

  it("keeps the user's strategy over the model's, but not on revision", async () => {
    claude.answer(submit(await modelPlan()));
    const brain = claudeArchitect(claude.access);
    expect((await brain.plan({ ...input, aggregation_strategy: 'majority' })).aggregation_strategy).toBe('majority');
    const previous = await offlineArchitect.plan(input);
    const revision = { previous, aggregate_summary: '1/3', failed_keys: ['solve'] };
    const revised = await brain.plan({ ...input, aggregation_strategy: 'all_success', revision });
    expect(revised.aggregation_strategy).toBe('first_success');
    expect(JSON.parse(claude.bodies().at(-1)!['messages'][0].content).revision.failed_keys).toEqual(['solve']);
  });

  it('refuses a schema-invalid plan (a cycle), naming the issue and the tokens it cost', async () => {
    const cyclic = await modelPlan();
    cyclic.subtasks[0]!.depends_on = ['solve-1'];
    cyclic.subtasks[1]!.depends_on = ['solve-0'];
    claude.answer(submit(cyclic));
    const error = await claudeArchitect(claude.access)
      .plan(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelAnswerError);
    expect((error as ModelAnswerError).code).toBe('invalid_model_answer');
    expect((error as ModelAnswerError).message).toMatch(/submit_plan answer was refused: .*cycle/);
    expect((error as ModelAnswerError).tokens.output).toBeGreaterThan(0);
  });

  it('refuses a plan with a missing field, an unknown task type, or no tool call', async () => {
    const { rationale: _dropped, ...noRationale } = await modelPlan();
    claude.answer(submit(noRationale));
    await expect(claudeArchitect(claude.access).plan(input)).rejects.toThrow(/first at rationale/);
    const odd = await modelPlan();
    odd.subtasks[2]!.task_type = 'deploy';
    claude.answer(submit(odd));
    await expect(claudeArchitect(claude.access).plan(input)).rejects.toThrow(/"solve-2" has task_type "deploy"/);
    claude.answer(() => ({ content: [{ type: 'text', text: 'Here is my plan...' }] }));
    await expect(claudeArchitect(claude.access).plan(input)).rejects.toThrow(/made no tool call, not submit_plan/);
  });

  it("passes an API error on as the model layer's ModelError", async () => {
    claude.answer(() => ({ error: { status: 429, message: 'slow down' } }));
    const error = await claudeArchitect(claude.access)
      .plan(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('rate_limited');
  });

  it('refuses an unknown model when built, before any call', () => {
    expect(() => claudeArchitect({ ...claude.access, model: 'claude-nonexistent' })).toThrow(/claude-nonexistent/);
  });
});
