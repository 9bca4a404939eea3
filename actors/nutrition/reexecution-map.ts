import type { AdjustmentTrigger } from '../../protocol/nutrition/adjustment-result.ts';
import type { PipelineStageAgent } from '../../protocol/nutrition/agents.ts';

/** One row of the §10 re-execution map. */
interface ReexecutionRule {
  /** Where the change enters the pipeline; null when nothing changes (advisory only). */
  readonly change_point: PipelineStageAgent | null;
  readonly agents_re_run: readonly PipelineStageAgent[];
  readonly agents_skipped: readonly PipelineStageAgent[];
}

const NUTRITION_CHAIN = ['NUTRITIONIST', 'DIETITIAN', 'CHEF'] as const;
const SCIENTIST_NUMBERS: ReexecutionRule = {
  change_point: 'SCIENTIST',
  agents_re_run: NUTRITION_CHAIN,
  agents_skipped: ['COACH'],
};
const TRAINING_ONLY: ReexecutionRule = {
  change_point: 'SCIENTIST',
  agents_re_run: ['COACH'],
  agents_skipped: NUTRITION_CHAIN,
};

/**
 * The §10 re-execution map as data, one entry per trigger type (the "calorie adjustment (+/-
 * kcal)" row serves both `calorie_increase` and `calorie_decrease`).
 */
export const REEXECUTION_MAP: Readonly<Record<AdjustmentTrigger, ReexecutionRule>> = {
  calorie_increase: SCIENTIST_NUMBERS,
  calorie_decrease: SCIENTIST_NUMBERS,
  protein_recalculation: SCIENTIST_NUMBERS,
  tdee_recalculation: SCIENTIST_NUMBERS,
  training_stall: TRAINING_ONLY,
  phase_transition: TRAINING_ONLY,
  waist_hip_ratio_flag: {
    change_point: 'SCIENTIST',
    agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
    agents_skipped: [],
  },
  compliance_issue: {
    change_point: 'DIETITIAN',
    agents_re_run: ['DIETITIAN', 'CHEF'],
    agents_skipped: ['SCIENTIST', 'NUTRITIONIST', 'COACH'],
  },
  tier_progression: SCIENTIST_NUMBERS,
  physician_advisory: {
    change_point: null,
    agents_re_run: [],
    agents_skipped: ['SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
  },
  cycle_phase_adjustment: {
    change_point: 'NUTRITIONIST',
    agents_re_run: ['DIETITIAN', 'CHEF'],
    agents_skipped: ['SCIENTIST', 'COACH'],
  },
};

/**
 * The agents a weekly result reports on (§7.4): the SCIENTIST is the evaluator, so it is in
 * neither list. Listed in pipeline order.
 */
const REPORTED_AGENTS = ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'] as const satisfies readonly PipelineStageAgent[];

/** The §7.4 agent lists for a set of fired triggers. */
interface AgentsToRerun {
  readonly agents_re_run: PipelineStageAgent[];
  readonly agents_unchanged: PipelineStageAgent[];
}

/**
 * `agents_re_run` is the union of the fired triggers' re-run lists, `agents_unchanged` the rest
 * of NUTRITIONIST, DIETITIAN, CHEF, COACH; both in pipeline order.
 *
 * @example agentsToRerun(['calorie_increase']) // re-run NUTRITIONIST, DIETITIAN, CHEF; unchanged COACH
 */
export function agentsToRerun(triggers: readonly AdjustmentTrigger[]): AgentsToRerun {
  const rerun = new Set(triggers.flatMap((trigger) => REEXECUTION_MAP[trigger].agents_re_run));
  return {
    agents_re_run: REPORTED_AGENTS.filter((agent) => rerun.has(agent)),
    agents_unchanged: REPORTED_AGENTS.filter((agent) => !rerun.has(agent)),
  };
}
