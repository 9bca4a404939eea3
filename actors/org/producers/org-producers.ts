import type {
  ApiContract,
  DbSchema,
  DeployPlan,
  Experiments,
  Stories,
  TestPlan,
  UiPlan,
} from '../../../protocol/org/deliverables.ts';
import type { Prd } from '../../../protocol/org/prd.ts';
import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import { apiContractFor } from '../deliverables/api-contract.ts';
import { dbSchemaFor } from '../deliverables/db-schema.ts';
import { deployPlanFor } from '../deliverables/deploy-plan.ts';
import { experimentsFor } from '../deliverables/experiments.ts';
import { storiesFromPrd } from '../deliverables/stories-from-prd.ts';
import { testPlanFor } from '../deliverables/test-plan.ts';
import { uiPlanFor } from '../deliverables/ui-plan.ts';

/** What a producer is asked with besides its inputs: the issues of a rejection to fix, and the turn's signal. */
export interface ProduceOptions {
  /** The receiver's issues with the last version (a fix after a rejection). */
  fix?: readonly ErrorIssue[] | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * How each agent makes its deliverable (one decision each): the offline rules, or Claude through
 * the model layer ({@link claudeProducers}). The roles around them (who hands what to whom, the
 * decisions checked by the chief, the receivers' validation) are the same either way.
 */
export interface OrgProducers {
  stories(input: { prd: Prd; prdVersion: number }, options?: ProduceOptions): Promise<Stories>;
  apiContract(input: { stories: Stories }, options?: ProduceOptions): Promise<ApiContract>;
  dbSchema(input: { contract: ApiContract; engine: string }, options?: ProduceOptions): Promise<DbSchema>;
  testPlan(input: { stories: Stories }, options?: ProduceOptions): Promise<TestPlan>;
  uiPlan(
    input: { stories: Stories; contract: ApiContract; contractVersion: number },
    options?: ProduceOptions,
  ): Promise<UiPlan>;
  deployPlan(input: { schema: DbSchema; tests: TestPlan }, options?: ProduceOptions): Promise<DeployPlan>;
  experiments(input: { stories: Stories }, options?: ProduceOptions): Promise<Experiments>;
}

/**
 * The offline producers: deterministic rules over the PRD and the deliverables before (a story per
 * feature, two endpoints per story, a table per resource, a case per acceptance criterion, ...).
 * A fix is made from the current inputs, which is what the rules' rejections ask for.
 */
export const OFFLINE_PRODUCERS: OrgProducers = Object.freeze({
  stories: async ({ prd, prdVersion }) => storiesFromPrd(prd, prdVersion),
  apiContract: async ({ stories }) => apiContractFor(stories),
  dbSchema: async ({ contract, engine }) => dbSchemaFor(contract, engine),
  testPlan: async ({ stories }) => testPlanFor(stories),
  uiPlan: async ({ stories, contract, contractVersion }) => uiPlanFor(stories, contract, contractVersion),
  deployPlan: async ({ schema, tests }) => deployPlanFor(schema, tests),
  experiments: async ({ stories }) => experimentsFor(stories),
} satisfies OrgProducers);
