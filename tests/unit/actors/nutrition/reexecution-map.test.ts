import { describe, expect, it } from 'vitest';
import { AdjustmentTriggerSchema } from '../../../../protocol/nutrition/adjustment-result.ts';
import { REEXECUTION_MAP, agentsToRerun } from '../../../../actors/nutrition/reexecution-map.ts';

// The §10 table, transcribed row by row.
const SPEC_ROWS = [
  ['calorie_increase', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF', 'COACH'],
  ['calorie_decrease', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF', 'COACH'],
  ['protein_recalculation', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF', 'COACH'],
  ['tdee_recalculation', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF', 'COACH'],
  ['training_stall', 'SCIENTIST', 'COACH', 'NUTRITIONIST, DIETITIAN, CHEF'],
  ['phase_transition', 'SCIENTIST', 'COACH', 'NUTRITIONIST, DIETITIAN, CHEF'],
  ['waist_hip_ratio_flag', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF, COACH', ''],
  ['compliance_issue', 'DIETITIAN', 'DIETITIAN, CHEF', 'SCIENTIST, NUTRITIONIST, COACH'],
  ['tier_progression', 'SCIENTIST', 'NUTRITIONIST, DIETITIAN, CHEF', 'COACH'],
  ['physician_advisory', null, '', 'SCIENTIST, NUTRITIONIST, DIETITIAN, CHEF, COACH'],
  ['cycle_phase_adjustment', 'NUTRITIONIST', 'DIETITIAN, CHEF', 'SCIENTIST, COACH'],
] as const;

const list = (text: string) => (text === '' ? [] : text.split(', '));

describe('REEXECUTION_MAP', () => {
  it('has one row per trigger type', () => {
    expect(Object.keys(REEXECUTION_MAP).sort()).toEqual([...AdjustmentTriggerSchema.options].sort());
  });

  it.each(SPEC_ROWS)('%s: change point %s, re-run [%s], skipped [%s]', (trigger, point, rerun, skipped) => {
    const rule = REEXECUTION_MAP[trigger];
    expect(rule.change_point).toBe(point);
    expect(rule.agents_re_run).toEqual(list(rerun));
    expect(rule.agents_skipped).toEqual(list(skipped));
  });
});

describe('agentsToRerun', () => {
  it('re-runs nobody and leaves the four agents unchanged when nothing fired', () => {
    expect(agentsToRerun([])).toEqual({
      agents_re_run: [],
      agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
    });
  });

  it('gives the §7.4 example lists for a calorie increase', () => {
    expect(agentsToRerun(['calorie_increase'])).toEqual({
      agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      agents_unchanged: ['COACH'],
    });
  });

  it('takes the union over several triggers, in pipeline order', () => {
    expect(agentsToRerun(['training_stall', 'cycle_phase_adjustment'])).toEqual({
      agents_re_run: ['DIETITIAN', 'CHEF', 'COACH'],
      agents_unchanged: ['NUTRITIONIST'],
    });
    expect(agentsToRerun(['compliance_issue', 'physician_advisory'])).toEqual({
      agents_re_run: ['DIETITIAN', 'CHEF'],
      agents_unchanged: ['NUTRITIONIST', 'COACH'],
    });
  });
});
