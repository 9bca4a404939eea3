import { describe, expect, it } from 'vitest';
import { AdjustmentResultSchema, NutritionEnvelopeSchema } from '../../../../protocol/nutrition/index.ts';
import { MESSAGE_ID, RUN_ID, payloadCopy } from './fixtures.ts';
import { issuePaths, issuesOf } from './issues.ts';

/** The §7.4 no-change example, verbatim. */
const NO_CHANGE = {
  triggers_fired: [],
  adjustment_type: null,
  agents_re_run: [],
  agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
  notes: ['Week 6: gain rate 0.32 kg/week — within target range'],
};

describe('AdjustmentResultSchema', () => {
  it('accepts the §7.4 change example in its envelope', () => {
    const envelope = {
      message_id: MESSAGE_ID,
      from_agent: 'SCIENTIST',
      to_agent: 'USER',
      data_type: 'adjustment_result',
      payload: payloadCopy('adjustment_result'),
      pipeline_run_id: `${RUN_ID}_v3`,
      timestamp: '2026-03-16T08:00:00Z',
      version: '1.0',
    };
    expect(issuesOf(NutritionEnvelopeSchema, envelope)).toEqual([]);
  });

  it('accepts the §7.4 no-change example', () => {
    expect(AdjustmentResultSchema.parse(NO_CHANGE)).toEqual(NO_CHANGE);
  });

  it('accepts a training-only change without calorie fields', () => {
    const payload = {
      triggers_fired: ['training_stall'],
      adjustment_type: 'training_stall',
      agents_re_run: ['COACH'],
      agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
      notes: ['Hip thrust and RDL stalled 3 sessions'],
    };
    expect(issuesOf(AdjustmentResultSchema, payload)).toEqual([]);
  });

  it('accepts a calorie decrease with a negative amount', () => {
    const payload = {
      ...payloadCopy('adjustment_result'),
      triggers_fired: ['calorie_decrease'],
      adjustment_type: 'calorie_decrease',
      adjustment_amount_kcal: -150,
      new_target_intake_kcal: 2550,
    };
    expect(issuesOf(AdjustmentResultSchema, payload)).toEqual([]);
  });

  it.each([
    ['an adjustment_type that did not fire', { adjustment_type: 'protein_recalculation' }, 'adjustment_type'],
    ['an unknown trigger', { triggers_fired: ['calorie_boost'] }, 'triggers_fired.0'],
    ['a calorie increase without its amount', { adjustment_amount_kcal: undefined }, 'adjustment_amount_kcal'],
    ['a calorie increase with a negative amount', { adjustment_amount_kcal: -200 }, 'adjustment_amount_kcal'],
    ['a calorie increase without the new target', { new_target_intake_kcal: undefined }, 'adjustment_amount_kcal'],
    ['an agent both re-run and unchanged', { agents_unchanged: ['COACH', 'CHEF'] }, 'agents_unchanged'],
    ['a non-stage agent re-run', { agents_re_run: ['PHYSICIAN'] }, 'agents_re_run.0'],
    ['new_macros without carbs_g', { new_macros: { protein_g: 102, fat_g: 75 } }, 'new_macros.carbs_g'],
  ])('rejects %s', (_name, change, path) => {
    const payload = JSON.parse(JSON.stringify({ ...payloadCopy('adjustment_result'), ...change }));
    expect(issuePaths(AdjustmentResultSchema, payload)).toEqual([path]);
  });

  it('rejects a change form with no trigger fired', () => {
    const payload = { ...payloadCopy('adjustment_result'), triggers_fired: [] };
    expect(issuePaths(AdjustmentResultSchema, payload)).toContain('triggers_fired');
  });

  it.each([
    ['a fired trigger', { triggers_fired: ['calorie_increase'] }, 'triggers_fired'],
    ['a re-run agent', { agents_re_run: ['CHEF'] }, 'agents_re_run'],
    ['calorie fields', { adjustment_amount_kcal: 200 }, ''],
  ])('rejects a no-change form with %s', (_name, change, path) => {
    expect(issuePaths(AdjustmentResultSchema, { ...NO_CHANGE, ...change })).toEqual([path]);
  });

  it('rejects a missing adjustment_type at adjustment_type', () => {
    const { adjustment_type: _, ...payload } = NO_CHANGE;
    expect(issuePaths(AdjustmentResultSchema, payload)).toEqual(['adjustment_type']);
  });
});
