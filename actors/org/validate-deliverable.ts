import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import {
  deliverableSchemaFor,
  type ApiContract,
  type DbSchema,
  type DeployPlan,
  type Experiments,
  type Stories,
  type TestPlan,
  type UiPlan,
} from '../../protocol/org/deliverables.ts';
import type { Prd } from '../../protocol/org/prd.ts';

/** What a receiver checks a deliverable against beyond its schema: the project as it stands. */
export interface ValidationBasis {
  prd: Prd;
  stories?: Stories | undefined;
  contract?: ApiContract | undefined;
  testPlan?: TestPlan | undefined;
}

const issue = (path: string, message: string): ErrorIssue => ({ path, message });

/** The checks of each type beyond its schema: what its receiver needs from it. */
const CHECKS: Record<string, (body: any, basis: ValidationBasis) => ErrorIssue[]> = {
  stories: (stories: Stories, { prd }) =>
    prd.features
      .filter((feature) => !stories.stories.some((story) => story.feature_id === feature.id))
      .map((feature) => issue('stories', `no story for PRD feature ${feature.id} (${feature.title})`)),
  api_contract: (contract: ApiContract, { stories }) =>
    (stories?.stories ?? [])
      .filter((story) => !contract.endpoints.some((endpoint) => endpoint.story_ids.includes(story.id)))
      .map((story) => issue('endpoints', `no endpoint for story ${story.id} (${story.title}), which the UI needs`)),
  db_schema: (schema: DbSchema) =>
    schema.tables
      .filter((table) => !table.columns.some((column) => column.primary_key))
      .map((table) => issue(`tables.${table.name}`, 'the table has no primary key')),
  test_plan: (plan: TestPlan, { stories }) => {
    const covered = new Set(plan.cases.map((c) => c.criterion_id));
    return (stories?.stories ?? []).flatMap((story) =>
      story.acceptance_criteria
        .filter((criterion) => !covered.has(criterion.id))
        .map((criterion) => issue('cases', `no case traces to acceptance criterion ${criterion.id}`)),
    );
  },
  ui_plan: (plan: UiPlan, { contract }) => {
    const endpoints = new Set(contract?.endpoints.map((e) => e.id));
    return plan.screens.flatMap((screen) =>
      screen.calls
        .filter((call) => !endpoints.has(call))
        .map((call) => issue(`screens.${screen.id}`, `calls ${call}, which the API contract lacks`)),
    );
  },
  deploy_plan: (plan: DeployPlan, { testPlan }) =>
    testPlan && plan.gate.test_cases !== testPlan.cases.length
      ? [issue('gate.test_cases', `gates on ${plan.gate.test_cases} cases; the test plan has ${testPlan.cases.length}`)]
      : [],
  experiments: (experiments: Experiments, { stories }) => {
    const storyIds = new Set(stories?.stories.map((s) => s.id));
    const flags = new Set(experiments.flags.map((f) => f.key));
    return [
      ...experiments.flags
        .filter((flag) => stories && !storyIds.has(flag.story_id))
        .map((flag) => issue(`flags.${flag.key}`, `story ${flag.story_id} does not exist`)),
      ...experiments.experiments
        .filter((experiment) => !flags.has(experiment.flag))
        .map((experiment) => issue(`experiments.${experiment.id}`, `flag ${experiment.flag} is not declared`)),
    ];
  },
};

/**
 * Validates a handed-off deliverable (Handoff Protocol step 4): against the schema registered for
 * its type and major version, then against what its receiver needs (a contract must have an
 * endpoint for every current story, a test plan a case for every acceptance criterion, ...).
 * Returns the specific issues; none means valid.
 */
export function validateDeliverable(
  type: string,
  schemaVersion: string,
  body: unknown,
  basis: ValidationBasis,
): ErrorIssue[] {
  const schema = deliverableSchemaFor(type, schemaVersion);
  if (typeof schema === 'string') return [issue('schema_version', schema)];
  const parsed = schema.safeParse(body);
  if (!parsed.success) return toErrorIssues(parsed.error.issues);
  return CHECKS[type]?.(parsed.data, basis) ?? [];
}
