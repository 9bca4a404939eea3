import { z } from 'zod';

/**
 * A pipeline run id (§2): a UUID v4, or for a re-run (§10 rule 3) the same UUID v4 with an
 * incremented version suffix `_v2`, `_v3`, ... The first run has no suffix, so `_v0` and `_v1`
 * are invalid, as is a leading zero (`_v02`).
 */
export const PipelineRunIdSchema = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}(?:_v(?:[2-9]|[1-9][0-9]+))?$/,
    'pipeline_run_id must be a UUID v4, optionally followed by a re-run suffix _v2, _v3, ...',
  );
