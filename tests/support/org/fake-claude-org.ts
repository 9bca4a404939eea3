import { apiContractFor } from '../../../actors/org/deliverables/api-contract.ts';
import { dbSchemaFor } from '../../../actors/org/deliverables/db-schema.ts';
import { deployPlanFor } from '../../../actors/org/deliverables/deploy-plan.ts';
import { experimentsFor } from '../../../actors/org/deliverables/experiments.ts';
import { storiesFromPrd } from '../../../actors/org/deliverables/stories-from-prd.ts';
import { testPlanFor } from '../../../actors/org/deliverables/test-plan.ts';
import { uiPlanFor } from '../../../actors/org/deliverables/ui-plan.ts';
import type { AnthropicReply } from '../models/fake-model-server.ts';

type Json = Record<string, any>;

/** The JSON a producer sent as its prompt (one user message). */
export const promptOf = (body: Json): Json => JSON.parse(String(body['messages'][0].content));

/**
 * A consistent Claude for the org's producers: it answers each forced tool from the prompt's own
 * inputs, by the same rules the offline producers follow, but writes its stories for a `shopper`
 * (the offline rules say `user`), so a deliverable shows whose it is. `answers` keeps what it
 * submitted, by tool, in order.
 */
export function fakeOrgClaude() {
  const answers = new Map<string, unknown[]>();
  const make: Record<string, (input: Json) => unknown> = {
    submit_stories: (input) => {
      const stories = storiesFromPrd(input['prd'], input['prd_version']);
      return { ...stories, stories: stories.stories.map((s) => ({ ...s, as_a: 'shopper' })) };
    },
    submit_api_contract: (input) => apiContractFor(input['stories']),
    submit_db_schema: (input) => dbSchemaFor(input['contract'], input['engine']),
    submit_test_plan: (input) => testPlanFor(input['stories']),
    submit_ui_plan: (input) => uiPlanFor(input['stories'], input['contract'], input['contract_version']),
    submit_deploy_plan: (input) => deployPlanFor(input['db_schema'], input['test_plan']),
    submit_experiments: (input) => experimentsFor(input['stories']),
  };
  const answer = (body: Json): AnthropicReply => {
    const tool = String(body['tool_choice']?.name);
    const rule = make[tool];
    if (!rule) return { error: { status: 400, message: `the fake org Claude has no rule for ${tool}` } };
    const input = rule(promptOf(body)) as Record<string, unknown>;
    answers.set(tool, [...(answers.get(tool) ?? []), input]);
    return { toolUse: { name: tool, input } };
  };
  return { answer, answers };
}
