import type { z } from 'zod';
import { createAnthropicProvider } from '../../models/anthropic-provider.ts';
import { callForcedTool, ModelAnswerError } from '../../models/forced-tool-call.ts';
import type { AnthropicAccess } from '../../models/model-backends.ts';
import { getModelConfig } from '../../models/model-registry.ts';
import {
  ApiContractV1Schema,
  DbSchemaV1Schema,
  DeployPlanV1Schema,
  ExperimentsV1Schema,
  StoriesV1Schema,
  TestPlanV1Schema,
  UiPlanV1Schema,
} from '../../../protocol/org/deliverables.ts';
import type { OrgProducers, ProduceOptions } from './org-producers.ts';

/** One agent's decision: who asks, the tool it must call (a deliverable schema), and what a schema cannot check. */
interface Decision<S extends z.ZodType> {
  agent: string;
  task: string;
  tool: string;
  schema: S;
  input: Record<string, unknown>;
  faults?: (value: z.output<S>) => string[];
}

const systemOf = (agent: string, task: string, tool: string) =>
  [
    `You are the ${agent} agent of a product organisation that works by spec 004's inter-agent protocol (v2.0).`,
    `Your task: ${task}`,
    'The input is JSON. When it has fix_issues, a receiver rejected your last version with those issues: fix every one.',
    `Answer only by calling ${tool}; its input is the deliverable, which the receiver validates against the same schema.`,
  ].join(' ');

/** The ids of `values` that are not in `known`, as faults naming `what`. */
function unknownIds(values: readonly string[], known: ReadonlySet<string>, what: string): string[] {
  return [...new Set(values.filter((v) => !known.has(v)))].map((v) => `names ${what} "${v}", which does not exist`);
}

/**
 * The org agents' deliverables from Claude (spec 004 with `ANTHROPIC_API_KEY`): each is one forced
 * tool call through the model layer whose tool input schema is the deliverable's registered
 * schema (`protocol/org/deliverables.ts`), validated by it; what a schema cannot check (the
 * versions it answers for, ids that must exist) refuses the answer too, with `ModelAnswerError`
 * naming each fault. Nothing of a refused answer is used.
 *
 * @example
 * const producers = backends.choose({ offline: () => OFFLINE_PRODUCERS, anthropic: (access) => claudeProducers(access) });
 */
export function claudeProducers(access: AnthropicAccess): OrgProducers {
  getModelConfig(access.model); // an unknown model is refused now, not after a paid call
  const provider = createAnthropicProvider({ client: access.client });
  async function decide<S extends z.ZodType>(
    decision: Decision<S>,
    options: ProduceOptions = {},
  ): Promise<z.output<S>> {
    const input = options.fix?.length ? { ...decision.input, fix_issues: options.fix } : decision.input;
    const { value, tokens } = await callForcedTool({
      provider,
      model: access.model,
      system: systemOf(decision.agent, decision.task, decision.tool),
      prompt: JSON.stringify(input),
      tool: { name: decision.tool, description: `Submit the ${decision.task}`, schema: decision.schema },
      signal: options.signal,
    });
    const faults = decision.faults?.(value) ?? [];
    if (faults.length > 0) throw new ModelAnswerError(decision.tool, faults.join('; '), tokens);
    return value;
  }
  return {
    stories: ({ prd, prdVersion }, options) =>
      decide(
        {
          agent: 'product',
          task: 'user stories of the PRD: at least one per feature, each with the acceptance criteria it traces to.',
          tool: 'submit_stories',
          schema: StoriesV1Schema,
          input: { prd, prd_version: prdVersion },
          faults: (value) => [
            ...(value.prd_version === prdVersion ? [] : [`prd_version is ${value.prd_version}, not ${prdVersion}`]),
            ...prd.features
              .filter((f) => !value.stories.some((s) => s.feature_id === f.id))
              .map((f) => `no story for feature "${f.id}"`),
            ...unknownIds(
              value.stories.map((s) => s.feature_id),
              new Set(prd.features.map((f) => f.id)),
              'feature',
            ),
          ],
        },
        options,
      ),
    apiContract: ({ stories }, options) =>
      decide(
        {
          agent: 'backend',
          task: 'API contract: the endpoints every story needs, each with JSON Schemas of its request and response.',
          tool: 'submit_api_contract',
          schema: ApiContractV1Schema,
          input: { stories },
          faults: (value) => [
            ...(value.prd_version === stories.prd_version
              ? []
              : [`prd_version is ${value.prd_version}, not ${stories.prd_version}`]),
            ...unknownIds(
              value.endpoints.flatMap((e) => e.story_ids),
              new Set(stories.stories.map((s) => s.id)),
              'story',
            ),
          ],
        },
        options,
      ),
    dbSchema: ({ contract, engine }, options) =>
      decide(
        {
          agent: 'database',
          task: `database schema on ${engine}: a table per resource of the API contract, each with a primary key.`,
          tool: 'submit_db_schema',
          schema: DbSchemaV1Schema,
          input: { contract, engine },
          faults: (value) => [
            ...(value.engine === engine ? [] : [`engine is "${value.engine}", not the decided "${engine}"`]),
            ...unknownIds(
              value.tables.flatMap((t) => t.endpoint_ids),
              new Set(contract.endpoints.map((e) => e.id)),
              'endpoint',
            ),
          ],
        },
        options,
      ),
    testPlan: ({ stories }, options) =>
      decide(
        {
          agent: 'sdte',
          task: 'test plan: a case for every acceptance criterion of every story, tracing to it.',
          tool: 'submit_test_plan',
          schema: TestPlanV1Schema,
          input: { stories },
          faults: (value) =>
            unknownIds(
              value.cases.map((c) => c.criterion_id),
              new Set(stories.stories.flatMap((s) => s.acceptance_criteria.map((c) => c.id))),
              'acceptance criterion',
            ),
        },
        options,
      ),
    uiPlan: ({ stories, contract, contractVersion }, options) =>
      decide(
        {
          agent: 'frontend',
          task: 'UI build plan against the API contract: a screen per story and the endpoints it calls.',
          tool: 'submit_ui_plan',
          schema: UiPlanV1Schema,
          input: { stories, contract, contract_version: contractVersion },
          faults: (value) => [
            ...(value.contract_version === contractVersion
              ? []
              : [`contract_version is ${value.contract_version}, not ${contractVersion}`]),
            ...unknownIds(
              value.screens.map((s) => s.story_id),
              new Set(stories.stories.map((s) => s.id)),
              'story',
            ),
          ],
        },
        options,
      ),
    deployPlan: ({ schema, tests }, options) =>
      decide(
        {
          agent: 'devops',
          task: 'deploy plan: ordered stages, the migrations, a gate that runs every case of the test plan, a rollback.',
          tool: 'submit_deploy_plan',
          schema: DeployPlanV1Schema,
          input: { db_schema: schema, test_plan: tests },
        },
        options,
      ),
    experiments: ({ stories }, options) =>
      decide(
        {
          agent: 'growth',
          task: 'experiments and feature flags: a flag per story and an experiment on it with a metric.',
          tool: 'submit_experiments',
          schema: ExperimentsV1Schema,
          input: { stories },
          faults: (value) =>
            unknownIds(
              value.flags.map((f) => f.story_id),
              new Set(stories.stories.map((s) => s.id)),
              'story',
            ),
        },
        options,
      ),
  };
}
