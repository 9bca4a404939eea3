import { z } from 'zod';
import { ErrorIssueSchema } from '../runtime/http-error.ts';
import { NutritionAgentSchema } from './agents.ts';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { PipelineRunIdSchema } from './pipeline-run-id.ts';

/** §6 `error_type`: timeout (§6.1), validation failure (§6.2), upstream missing (§6.3), abort (§6.4). */
const PipelineErrorTypeSchema = z.enum(['timeout', 'validation_failure', 'upstream_missing', 'physician_abort']);

/** Retries per agent (§9: max retries per agent is 1). */
const MAX_AGENT_RETRIES = 1;

/**
 * §6 ORCHESTRATOR -> USER (`pipeline_error`): why the run stopped or stumbled. A timeout also
 * carries `timeout_duration_ms` and `input_hash` (§6.1 step 4).
 */
export const PipelineErrorSchema = rejectReplacedFieldNames(
  z
    .strictObject({
      error_type: PipelineErrorTypeSchema,
      failing_agent: NutritionAgentSchema,
      /** Description of what failed. */
      details: z.string().min(1),
      pipeline_run_id: PipelineRunIdSchema,
      recoverable: z.boolean(),
      retry_count: z.number().int().min(0).max(MAX_AGENT_RETRIES),
      /** §6.1: how long the agent was given; required when error_type is "timeout". */
      timeout_duration_ms: z.number().int().positive().max(600_000).optional(),
      /** §6.1: hash of the input the agent timed out on; required when error_type is "timeout". */
      input_hash: z.string().min(1).optional(),
      /** §6.2: the missing fields, type mismatches and constraint violations found. */
      issues: z.array(ErrorIssueSchema).optional(),
    })
    .refine(
      (error) =>
        error.error_type !== 'timeout' || (error.timeout_duration_ms !== undefined && error.input_hash !== undefined),
      {
        message: 'A timeout error must include timeout_duration_ms and input_hash (spec §6.1).',
        path: ['error_type'],
      },
    ),
);
export type PipelineError = z.infer<typeof PipelineErrorSchema>;
