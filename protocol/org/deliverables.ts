import { z } from 'zod';

/*
 * The deliverables agents hand off (spec 004's Handoff Protocol), one schema per type and major
 * version: a receiver validates a handoff against the schema registered for its type and the
 * major of its `schema_version`.
 */

const Id = z.string().min(1).max(100);

/** `product`'s user stories, one or more per PRD feature, each tracing to its acceptance criteria. */
export const StoriesV1Schema = z.strictObject({
  prd_version: z.int().min(1),
  stories: z
    .array(
      z.strictObject({
        id: Id,
        feature_id: Id,
        title: z.string().min(1),
        as_a: z.string().min(1),
        i_want: z.string().min(1),
        so_that: z.string().min(1),
        resource: z.string().regex(/^[a-z][a-z0-9_]*$/),
        acceptance_criteria: z.array(z.strictObject({ id: Id, text: z.string().min(1) })).min(1),
      }),
    )
    .min(1),
});

/** A JSON Schema object (draft 2020-12 as far as the contract uses it). */
export const JsonSchemaObjectSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.looseObject({ type: z.string() })),
  required: z.array(z.string()).optional(),
});

/** `backend`'s API contract: each endpoint with JSON Schemas of its request and response. */
export const ApiContractV1Schema = z.strictObject({
  prd_version: z.int().min(1),
  endpoints: z
    .array(
      z.strictObject({
        id: Id,
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z.string().regex(/^\/[a-z0-9/_{}-]*$/),
        story_ids: z.array(Id).min(1),
        request_schema: JsonSchemaObjectSchema.optional(),
        response_schema: JsonSchemaObjectSchema,
      }),
    )
    .min(1),
});

/** `database`'s schema: tables with typed columns, one per resource of the contract. */
export const DbSchemaV1Schema = z.strictObject({
  engine: z.string().min(1),
  tables: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-z][a-z0-9_]*$/),
        columns: z
          .array(
            z.strictObject({
              name: z.string().regex(/^[a-z][a-z0-9_]*$/),
              type: z.enum(['uuid', 'text', 'integer', 'boolean', 'timestamptz', 'jsonb']),
              nullable: z.boolean(),
              primary_key: z.boolean().optional(),
            }),
          )
          .min(1),
        endpoint_ids: z.array(Id),
      }),
    )
    .min(1),
});

/** `sdte`'s test plan: every case traces to an acceptance criterion (and its story). */
export const TestPlanV1Schema = z.strictObject({
  cases: z
    .array(
      z.strictObject({
        id: Id,
        story_id: Id,
        criterion_id: Id,
        endpoint_id: Id.optional(),
        steps: z.array(z.string().min(1)).min(1),
        expected: z.string().min(1),
      }),
    )
    .min(1),
  coverage: z.strictObject({ criteria: z.int().min(0), covered: z.int().min(0) }),
});

/** `frontend`'s build plan against the contract: screens and the endpoints they call. */
export const UiPlanV1Schema = z.strictObject({
  contract_version: z.int().min(1),
  screens: z.array(z.strictObject({ id: Id, story_id: Id, calls: z.array(Id) })).min(1),
});

/** `devops`'s deploy plan: ordered stages, the migrations and the gate on the test plan. */
export const DeployPlanV1Schema = z.strictObject({
  stages: z.array(z.strictObject({ name: z.string().min(1), steps: z.array(z.string().min(1)).min(1) })).min(1),
  migrations: z.array(z.string().min(1)),
  gate: z.strictObject({ test_cases: z.int().min(1) }),
  rollback: z.string().min(1),
});

/** `growth`'s experiments and feature flags, each on a story. */
export const ExperimentsV1Schema = z.strictObject({
  flags: z.array(z.strictObject({ key: z.string().regex(/^[a-z][a-z0-9_.-]*$/), story_id: Id, default: z.boolean() })),
  experiments: z.array(
    z.strictObject({
      id: Id,
      flag: z.string().min(1),
      hypothesis: z.string().min(1),
      metric: z.string().min(1),
      variants: z.array(z.string().min(1)).min(2),
    }),
  ),
});

/** Every deliverable type, by type then major version. */
export const DELIVERABLE_SCHEMAS = {
  stories: { 1: StoriesV1Schema },
  api_contract: { 1: ApiContractV1Schema },
  db_schema: { 1: DbSchemaV1Schema },
  test_plan: { 1: TestPlanV1Schema },
  ui_plan: { 1: UiPlanV1Schema },
  deploy_plan: { 1: DeployPlanV1Schema },
  experiments: { 1: ExperimentsV1Schema },
} as const satisfies Record<string, Record<number, z.ZodType>>;

export const DeliverableTypeSchema = z.enum(
  Object.keys(DELIVERABLE_SCHEMAS) as [keyof typeof DELIVERABLE_SCHEMAS, ...(keyof typeof DELIVERABLE_SCHEMAS)[]],
);
export type DeliverableType = z.infer<typeof DeliverableTypeSchema>;

export type Stories = z.infer<typeof StoriesV1Schema>;
export type ApiContract = z.infer<typeof ApiContractV1Schema>;
export type DbSchema = z.infer<typeof DbSchemaV1Schema>;
export type TestPlan = z.infer<typeof TestPlanV1Schema>;
export type UiPlan = z.infer<typeof UiPlanV1Schema>;
export type DeployPlan = z.infer<typeof DeployPlanV1Schema>;
export type Experiments = z.infer<typeof ExperimentsV1Schema>;

/**
 * The schema registered for `type` at the major of `schemaVersion` (`"1.2"` -> 1), or why there
 * is none (an unknown type, an unregistered major).
 */
export function deliverableSchemaFor(type: string, schemaVersion: string): z.ZodType | string {
  const schemas = (DELIVERABLE_SCHEMAS as Record<string, Record<number, z.ZodType>>)[type];
  if (!schemas) return `no deliverable type ${type}; register its schema in DELIVERABLE_SCHEMAS`;
  const major = Number(/^(\d+)\.\d+$/.exec(schemaVersion)?.[1]);
  const schema = Number.isInteger(major) ? schemas[major] : undefined;
  return schema ?? `no schema for ${type} major ${schemaVersion}; known: ${Object.keys(schemas).join(', ')}`;
}
