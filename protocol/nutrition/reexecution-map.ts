import { z } from 'zod';
import { PipelineStageAgentSchema, type PipelineStageAgent } from './agents.ts';
import type { AdjustmentTrigger } from './adjustment-result.ts';

/** One row of the §10 re-execution map. */
export const ReexecutionRuleSchema = z.strictObject({
  /** Where the change originates; null when nothing changes (advisory only). */
  change_point: PipelineStageAgentSchema.nullable(),
  /** Agents re-run, in pipeline order. */
  re_run: z.array(PipelineStageAgentSchema),
  /** Agents that keep their latest output of the current run (§10 rule 1). */
  skipped: z.array(PipelineStageAgentSchema),
});
export type ReexecutionRule = z.infer<typeof ReexecutionRuleSchema>;

const NUTRITION_CHAIN: PipelineStageAgent[] = ['NUTRITIONIST', 'DIETITIAN', 'CHEF'];

/**
 * The §10 re-execution map as data, one row per trigger (the "calorie adjustment" row serves both
 * directions). COACH re-runs only for training triggers and the full waist-to-hip review (rule 4).
 */
export const REEXECUTION_MAP = {
  calorie_increase: { change_point: 'SCIENTIST', re_run: NUTRITION_CHAIN, skipped: ['COACH'] },
  calorie_decrease: { change_point: 'SCIENTIST', re_run: NUTRITION_CHAIN, skipped: ['COACH'] },
  protein_recalculation: { change_point: 'SCIENTIST', re_run: NUTRITION_CHAIN, skipped: ['COACH'] },
  tdee_recalculation: { change_point: 'SCIENTIST', re_run: NUTRITION_CHAIN, skipped: ['COACH'] },
  training_stall: { change_point: 'SCIENTIST', re_run: ['COACH'], skipped: NUTRITION_CHAIN },
  phase_transition: { change_point: 'SCIENTIST', re_run: ['COACH'], skipped: NUTRITION_CHAIN },
  waist_hip_ratio_flag: { change_point: 'SCIENTIST', re_run: [...NUTRITION_CHAIN, 'COACH'], skipped: [] },
  compliance_issue: {
    change_point: 'DIETITIAN',
    re_run: ['DIETITIAN', 'CHEF'],
    skipped: ['SCIENTIST', 'NUTRITIONIST', 'COACH'],
  },
  tier_progression: { change_point: 'SCIENTIST', re_run: NUTRITION_CHAIN, skipped: ['COACH'] },
  physician_advisory: {
    change_point: null,
    re_run: [],
    skipped: ['SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
  },
  cycle_phase_adjustment: {
    change_point: 'NUTRITIONIST',
    re_run: ['DIETITIAN', 'CHEF'],
    skipped: ['SCIENTIST', 'COACH'],
  },
} as const satisfies Record<AdjustmentTrigger, ReexecutionRule>;
