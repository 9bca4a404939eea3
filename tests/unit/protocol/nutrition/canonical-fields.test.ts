import { describe, expect, it } from 'vitest';
import {
  CANONICAL_FIELDS,
  NutritionEnvelopeSchema,
  NutritionPayloadSchemas,
  REPLACED_FIELD_NAMES,
  TrainingInputSchema,
  WeeklyCheckinSchema,
} from '../../../../protocol/nutrition/index.ts';
import { payloadCopy, validEnvelope } from './fixtures.ts';
import { issuesOf } from './issues.ts';

const REPLACED = Object.entries(CANONICAL_FIELDS).flatMap(([canonical, names]) =>
  names.map((name) => ({ name, canonical })),
);

describe('CANONICAL_FIELDS', () => {
  it('holds the §3 table: 11 canonical names replacing 20 names', () => {
    expect(Object.keys(CANONICAL_FIELDS)).toHaveLength(11);
    expect(REPLACED).toHaveLength(20);
    expect(CANONICAL_FIELDS.target_intake_kcal).toEqual(['daily_calories', 'total_calories', 'calorie_target']);
    expect(CANONICAL_FIELDS.current_weight_kg).toEqual(['weight', 'body_weight']);
    expect(CANONICAL_FIELDS.weekly_weight_target_kg).toEqual(['gain_rate']);
  });

  it('inverts into REPLACED_FIELD_NAMES without losing a name', () => {
    expect(REPLACED_FIELD_NAMES.size).toBe(REPLACED.length);
    for (const { name, canonical } of REPLACED) expect(REPLACED_FIELD_NAMES.get(name)).toBe(canonical);
  });

  it('never replaces a canonical name', () => {
    for (const canonical of Object.keys(CANONICAL_FIELDS)) expect(REPLACED_FIELD_NAMES.has(canonical)).toBe(false);
  });
});

describe('replaced field names', () => {
  it.each(REPLACED)('rejects `$name` at the top of macro_targets, naming `$canonical`', ({ name, canonical }) => {
    const payload = { ...payloadCopy('macro_targets'), [name]: 1 };
    expect(issuesOf(NutritionPayloadSchemas.macro_targets, payload)).toContainEqual({
      path: name,
      message: `\`${name}\` is not a canonical field name: use \`${canonical}\``,
    });
  });

  it('names the canonical field for daily_calories as the spec example does', () => {
    const payload = { ...payloadCopy('nutrition_strategy'), daily_calories: 2400 };
    const messages = issuesOf(NutritionPayloadSchemas.nutrition_strategy, payload).map((i) => i.message);
    expect(messages).toContain('`daily_calories` is not a canonical field name: use `target_intake_kcal`');
  });

  it('keeps the canonical message beside the strict object issue, even with other issues present', () => {
    const payload = { ...payloadCopy('macro_targets'), protein_g: -5, weight: 52 };
    const issues = issuesOf(NutritionPayloadSchemas.macro_targets, payload);
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(['protein_g', '', 'weight']));
    expect(issues.find((i) => i.path === 'weight')?.message).toContain('use `current_weight_kg`');
  });

  it('rejects a replaced name nested in an object, at its full path', () => {
    const payload = payloadCopy('weekly_meal_plan');
    payload.weekly_template.friday.dinner.slot_spec.calorie_target = 600;
    const issues = issuesOf(NutritionPayloadSchemas.weekly_meal_plan, payload);
    expect(issues).toContainEqual({
      path: 'weekly_template.friday.dinner.slot_spec.calorie_target',
      message: '`calorie_target` is not a canonical field name: use `target_intake_kcal`',
    });
  });

  it('rejects a replaced name inside an array element', () => {
    const payload = payloadCopy('recipes');
    payload.recipes[0].macros_per_serving.daily_fiber = 8;
    const issues = issuesOf(NutritionPayloadSchemas.recipes, payload);
    expect(issues.map((i) => i.path)).toContain('recipes.0.macros_per_serving.daily_fiber');
  });

  it('rejects a replaced name used as a record key', () => {
    const volume = payloadCopy('training_program');
    volume.weekly_volume_summary.weight = 3;
    expect(issuesOf(NutritionPayloadSchemas.training_program, volume)).toContainEqual({
      path: 'weekly_volume_summary.weight',
      message: '`weight` is not a canonical field name: use `current_weight_kg`',
    });
    const bank = payloadCopy('weekly_meal_plan');
    bank.substitution_bank.protein_target = ['x'];
    expect(issuesOf(NutritionPayloadSchemas.weekly_meal_plan, bank).map((i) => i.path)).toContain(
      'substitution_bank.protein_target',
    );
  });

  it('rejects a replaced name in the no-change form of adjustment_result', () => {
    const payload = {
      triggers_fired: [],
      adjustment_type: null,
      agents_re_run: [],
      agents_unchanged: ['COACH'],
      notes: [],
      gain_rate: 0.3,
    };
    expect(issuesOf(NutritionPayloadSchemas.adjustment_result, payload).map((i) => i.message)).toContain(
      '`gain_rate` is not a canonical field name: use `weekly_weight_target_kg`',
    );
  });

  it('reports the canonical message under payload. in an envelope', () => {
    const envelope = validEnvelope('weekly_checkin');
    const bad = { ...envelope, payload: { ...envelope.payload, body_weight: 56 } };
    expect(issuesOf(NutritionEnvelopeSchema, bad)).toContainEqual({
      path: 'payload.body_weight',
      message: '`body_weight` is not a canonical field name: use `current_weight_kg`',
    });
  });

  it('accepts weight_kg where §7.1 uses it: the check-in and its training log', () => {
    expect(issuesOf(WeeklyCheckinSchema, payloadCopy('weekly_checkin'))).toEqual([]);
    expect(issuesOf(TrainingInputSchema, payloadCopy('training_input'))).toEqual([]);
  });

  it('rejects only the exact replaced names, not names that contain them', () => {
    const payload = { ...payloadCopy('weekly_checkin'), weights: 1 };
    const issues = issuesOf(WeeklyCheckinSchema, payload);
    expect(issues).toEqual([{ path: '', message: 'Unrecognized key: "weights"' }]);
  });
});
