import { describe, expect, it } from 'vitest';
import {
  AdjustmentTriggerSchema,
  REEXECUTION_MAP,
  ReexecutionRuleSchema,
} from '../../../../protocol/nutrition/index.ts';

const TRAINING_TRIGGERS = ['training_stall', 'phase_transition', 'waist_hip_ratio_flag'];

describe('REEXECUTION_MAP', () => {
  it('has a valid row for every adjustment trigger', () => {
    expect(Object.keys(REEXECUTION_MAP).sort()).toEqual([...AdjustmentTriggerSchema.options].sort());
    for (const rule of Object.values(REEXECUTION_MAP)) expect(ReexecutionRuleSchema.parse(rule)).toEqual(rule);
  });

  it.each(Object.entries(REEXECUTION_MAP))('never both re-runs and skips an agent (%s)', (_trigger, rule) => {
    const reRun: readonly string[] = rule.re_run;
    expect(rule.skipped.filter((agent) => reRun.includes(agent))).toEqual([]);
  });

  it('re-runs COACH only for training triggers and the full review (§10 rule 4)', () => {
    const withCoach = Object.entries(REEXECUTION_MAP)
      .filter(([, rule]) => (rule.re_run as readonly string[]).includes('COACH'))
      .map(([trigger]) => trigger);
    expect(withCoach.sort()).toEqual([...TRAINING_TRIGGERS].sort());
  });

  it('matches the §7.4 example: a calorie increase re-runs the nutrition chain and leaves COACH', () => {
    expect(REEXECUTION_MAP.calorie_increase.re_run).toEqual(['NUTRITIONIST', 'DIETITIAN', 'CHEF']);
    expect(REEXECUTION_MAP.calorie_increase.skipped).toEqual(['COACH']);
  });
});
