import type { SnapshotFrom } from 'xstate';
import type { PipelineMachine } from '../../machines/nutrition/pipeline.ts';
import type { NutritionDataType } from '../../protocol/nutrition/nutrition-data-type.ts';

/** What a user sees of a run's status. */
export type PipelineStatus = 'running' | 'paused' | 'completed' | 'error' | 'terminated_medical';

/**
 * The states a run's listing records as it reaches them (`paused_physician` as soon as the
 * PHYSICIAN is asked; SSE `until=settled` waits for `settledForUser`).
 */
export const SETTLED_STATES: ReadonlySet<string> = new Set(['output_ready', 'paused_physician', 'error']);

const OUTPUT_TYPES: readonly NutritionDataType[] = [
  'macro_targets',
  'training_input',
  'nutrition_strategy',
  'weekly_meal_plan',
  'recipes',
  'training_program',
];

export function statusOf(snapshot: SnapshotFrom<PipelineMachine>): PipelineStatus {
  const state = String(snapshot.value);
  if (state === 'error') return snapshot.context.terminatedMedical ? 'terminated_medical' : 'error';
  if (state === 'output_ready') return 'completed';
  if (state === 'paused_physician') return 'paused';
  return 'running';
}

/** `GET /pipelines/:id`: the run's state, its latest outputs, the PHYSICIAN exchange and the error. */
export function pipelineView(snapshot: SnapshotFrom<PipelineMachine>) {
  const { context } = snapshot;
  const outputs = Object.fromEntries(
    OUTPUT_TYPES.flatMap((type) => {
      const envelope = context.outputs[type];
      return envelope ? [[type, envelope.payload]] : [];
    }),
  );
  const physician = context.physician && {
    query: context.physician.query.payload,
    response: context.physician.response?.payload ?? null,
    pipeline_action: context.physician.response?.payload.pipeline_action ?? null,
    awaiting_confirmation:
      context.physician.response?.payload.pipeline_action === 'pause_pending_referral' && !context.physician.confirmed,
  };
  return {
    pipeline_run_id: context.runId,
    version: context.version,
    state: String(snapshot.value),
    previous_state: context.previousState,
    status: statusOf(snapshot),
    outputs,
    physician: physician ?? null,
    error: context.error,
    last_adjustment: context.lastAdjustment?.payload ?? null,
  };
}

/** `GET /pipelines/:id` of a run that could not be recovered after a restart: over, and why. */
export function failedPipelineView(runId: string, reason: string) {
  return {
    pipeline_run_id: runId,
    version: 1,
    state: 'error',
    previous_state: null,
    status: 'error' as PipelineStatus,
    outputs: {},
    physician: null,
    error: null,
    last_adjustment: null,
    failure: { code: 'run_unrecoverable', message: `This run could not be recovered after a restart. ${reason}` },
  };
}
