import { z } from 'zod';

/** §1 pipeline states. */
export const PipelineStateSchema = z.enum([
  'intake_pending',
  'scientist_processing',
  'nutritionist_processing',
  'dietitian_processing',
  'chef_processing',
  'coach_processing',
  'output_ready',
  'paused_physician',
  'error',
]);
export type PipelineState = z.infer<typeof PipelineStateSchema>;

/** The §1 placeholder for "the state that triggered the pause" (§5 `continue`). */
export const PREVIOUS_STATE = '{previous_state}';

/** One line of the §1 transition table; `reason` is the line's parenthesised note, if any. */
export const PipelineTransitionSchema = z.strictObject({
  from: PipelineStateSchema,
  to: z.union([PipelineStateSchema, z.literal(PREVIOUS_STATE)]),
  reason: z.string().optional(),
});
export type PipelineTransition = z.infer<typeof PipelineTransitionSchema>;

/** One edge between two real states. */
type PipelineEdge = PipelineTransition & { to: PipelineState };

const RED_FLAG = 'red flag detected';
const UPSTREAM_RERUN = 'validation failure, upstream re-run';
const CONTINUE = 'pipeline_action = "continue"';

/** The §1 "Valid Transitions" block, line for line, `{previous_state}` kept literal. */
export const PIPELINE_TRANSITIONS = [
  { from: 'intake_pending', to: 'scientist_processing' },
  { from: 'scientist_processing', to: 'nutritionist_processing' },
  { from: 'scientist_processing', to: 'paused_physician', reason: RED_FLAG },
  { from: 'scientist_processing', to: 'error', reason: 'timeout/validation failure' },
  { from: 'nutritionist_processing', to: 'dietitian_processing' },
  { from: 'nutritionist_processing', to: 'paused_physician', reason: RED_FLAG },
  { from: 'nutritionist_processing', to: 'scientist_processing', reason: UPSTREAM_RERUN },
  { from: 'nutritionist_processing', to: 'error' },
  { from: 'dietitian_processing', to: 'chef_processing' },
  { from: 'dietitian_processing', to: 'nutritionist_processing', reason: UPSTREAM_RERUN },
  { from: 'dietitian_processing', to: 'paused_physician', reason: RED_FLAG },
  { from: 'dietitian_processing', to: 'error' },
  { from: 'chef_processing', to: 'coach_processing' },
  { from: 'chef_processing', to: 'dietitian_processing', reason: 'slot spec conflict, request clarification' },
  { from: 'chef_processing', to: 'error' },
  { from: 'coach_processing', to: 'output_ready' },
  { from: 'coach_processing', to: 'paused_physician', reason: RED_FLAG },
  { from: 'coach_processing', to: 'error' },
  { from: 'paused_physician', to: PREVIOUS_STATE, reason: CONTINUE },
  { from: 'paused_physician', to: 'paused_physician', reason: 'pipeline_action = "pause_pending_referral"' },
  { from: 'paused_physician', to: 'error', reason: 'pipeline_action = "abort"' },
  { from: 'output_ready', to: 'scientist_processing', reason: 'weekly feedback loop triggers re-run' },
] as const satisfies readonly PipelineTransition[];

/**
 * Edges the §1 table lacks, each a decision written in the README. §1 gives `intake_pending` one
 * way out, to `scientist_processing`; but INTAKE is an agent here (the user's intake is validated
 * at the HTTP boundary and INTAKE hands it on), and §9's total pipeline timeout covers the whole
 * run. Without this edge a run whose INTAKE failed, or that timed out before SCIENTIST, stayed
 * `intake_pending` and running for good, holding its place in admission.
 */
export const PIPELINE_DECISIONS = [
  { from: 'intake_pending', to: 'error', reason: 'INTAKE failure or the total pipeline timeout (a decision)' },
] as const satisfies readonly PipelineTransition[];

/**
 * The states from which a red flag can pause the pipeline (every state with an edge into
 * `paused_physician`, other than `paused_physician` itself), i.e. the values `{previous_state}`
 * can take.
 */
export const PAUSABLE_STATES = [
  'scientist_processing',
  'nutritionist_processing',
  'dietitian_processing',
  'coach_processing',
] as const satisfies readonly PipelineState[];

/**
 * `PIPELINE_TRANSITIONS` with the `{previous_state}` line expanded into one edge back to each of
 * `PAUSABLE_STATES`, in the same order otherwise, then `PIPELINE_DECISIONS`: every edge between
 * two real states that the pipeline machine has.
 */
export const PIPELINE_EDGES: readonly PipelineEdge[] = [
  ...PIPELINE_TRANSITIONS.flatMap((line): PipelineEdge[] =>
    line.to === PREVIOUS_STATE ? PAUSABLE_STATES.map((to) => ({ ...line, to })) : [line as PipelineEdge],
  ),
  ...PIPELINE_DECISIONS,
];
