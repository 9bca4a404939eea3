import { describe, expect, it } from 'vitest';
import {
  NutritionDataTypeSchema,
  NutritionPayloadSchemas,
  type NutritionDataType,
} from '../../../../protocol/nutrition/index.ts';
import { payloadCopy } from './fixtures.ts';
import { issuePaths, issuesOf } from './issues.ts';

type Case = [name: string, dataType: NutritionDataType, breakIt: (p: Record<string, any>) => void, path: string];

/** Each case breaks one rule of one payload; the payload must then fail at exactly `path`. */
const REJECTED: Case[] = [
  // §4.1 intake_data
  ['an intake without peanut_butter', 'intake_data', (p) => (p.food_aversions = ['nut_butters']), 'food_aversions'],
  ['an intake without nut_butters', 'intake_data', (p) => (p.food_aversions = ['peanut_butter']), 'food_aversions'],
  ['a wrong training_phase', 'intake_data', (p) => (p.training_phase = 'training'), 'training_phase'],
  ['a wrong menstrual_status', 'intake_data', (p) => (p.menstrual_status = 'none'), 'menstrual_status'],
  ['a wrong training_experience', 'intake_data', (p) => (p.training_experience = 'advanced'), 'training_experience'],
  ['a wrong appetite_level', 'intake_data', (p) => (p.appetite_level = 'huge'), 'appetite_level'],
  ['a wrong cooking_skill', 'intake_data', (p) => (p.cooking_skill = 'expert'), 'cooking_skill'],
  ['a wrong equipment_access', 'intake_data', (p) => (p.equipment_access = 'gym'), 'equipment_access'],
  ['a wrong gym_anxiety_level', 'intake_data', (p) => (p.gym_anxiety_level = 'none'), 'gym_anxiety_level'],
  ['a wrong sex', 'intake_data', (p) => (p.sex = 'f'), 'sex'],
  ['a fractional age', 'intake_data', (p) => (p.age = 29.5), 'age'],
  ['a negative weight', 'intake_data', (p) => (p.current_weight_kg = -52), 'current_weight_kg'],
  ['a weight given as a string', 'intake_data', (p) => (p.target_weight_kg = '58'), 'target_weight_kg'],
  ['a missing height', 'intake_data', (p) => delete p.height_cm, 'height_cm'],
  [
    'medical_history without injuries',
    'intake_data',
    (p) => delete p.medical_history.injuries,
    'medical_history.injuries',
  ],
  ['a repeated available day', 'intake_data', (p) => (p.available_days = ['monday', 'monday']), 'available_days'],
  // §4.2 macro_targets
  [
    'adaptation complete before week 4',
    'macro_targets',
    (p) => (p.adaptation_period_complete = true),
    'adaptation_period_complete',
  ],
  ['fiber_g_min below 20', 'macro_targets', (p) => (p.fiber_g_min = 19.9), 'fiber_g_min'],
  [
    'a gain target of 0.6 kg/week',
    'macro_targets',
    (p) => (p.weekly_weight_target_kg = 0.6),
    'weekly_weight_target_kg',
  ],
  [
    'a gain target of 0.2 kg/week',
    'macro_targets',
    (p) => (p.weekly_weight_target_kg = 0.2),
    'weekly_weight_target_kg',
  ],
  ['protein of 2.1 g/kg', 'macro_targets', (p) => (p.protein_g_per_kg = 2.1), 'protein_g_per_kg'],
  ['protein of 1.5 g/kg', 'macro_targets', (p) => (p.protein_g_per_kg = 1.5), 'protein_g_per_kg'],
  ['fat under 25% of calories', 'macro_targets', (p) => (p.fat_percent = 24), 'fat_percent'],
  ['fractional weeks_on_program', 'macro_targets', (p) => (p.weeks_on_program = 1.5), 'weeks_on_program'],
  [
    'client_constraints without nut butters',
    'macro_targets',
    (p) => (p.client_constraints.food_aversions = []),
    'client_constraints.food_aversions',
  ],
  [
    'a missing client_constraints field',
    'macro_targets',
    (p) => delete p.client_constraints.partner_cooks,
    'client_constraints.partner_cooks',
  ],
  // §4.3 nutrition_strategy
  ['tier 3', 'nutrition_strategy', (p) => (p.current_tier = 3), 'current_tier'],
  ['tier "1"', 'nutrition_strategy', (p) => (p.current_tier = '1'), 'current_tier'],
  ['fiber_target_g below 20', 'nutrition_strategy', (p) => (p.fiber_target_g = 15), 'fiber_target_g'],
  [
    'a missing presleep_g',
    'nutrition_strategy',
    (p) => delete p.protein_distribution.presleep_g,
    'protein_distribution.presleep_g',
  ],
  [
    'a supplement without timing',
    'nutrition_strategy',
    (p) => delete p.supplement_protocol[0].timing,
    'supplement_protocol.0.timing',
  ],
  [
    'cycle_adjustments without luteal',
    'nutrition_strategy',
    (p) => delete p.cycle_adjustments.luteal,
    'cycle_adjustments.luteal',
  ],
  // §4.4 weekly_meal_plan
  ['a template without sunday', 'weekly_meal_plan', (p) => delete p.weekly_template.sunday, 'weekly_template.sunday'],
  [
    'a day without presleep',
    'weekly_meal_plan',
    (p) => delete p.weekly_template.monday.presleep,
    'weekly_template.monday.presleep',
  ],
  [
    'a day with an eighth key',
    'weekly_meal_plan',
    (p) => (p.weekly_template.funday = p.weekly_template.monday),
    'weekly_template',
  ],
  [
    'a slot named brunch',
    'weekly_meal_plan',
    (p) => (p.weekly_template.monday.brunch = p.weekly_template.monday.lunch),
    'weekly_template.monday',
  ],
  [
    'a slot spec without fat_g',
    'weekly_meal_plan',
    (p) => delete p.weekly_template.monday.lunch.slot_spec.fat_g,
    'weekly_template.monday.lunch.slot_spec.fat_g',
  ],
  [
    'a missing cuisine_theme',
    'weekly_meal_plan',
    (p) => delete p.weekly_template.monday.lunch.cuisine_theme,
    'weekly_template.monday.lunch.cuisine_theme',
  ],
  [
    'a substitution bank keyed by an unknown slot',
    'weekly_meal_plan',
    (p) => (p.substitution_bank.brunch = ['x']),
    'substitution_bank',
  ],
  [
    'an emergency protocol without meals',
    'weekly_meal_plan',
    (p) => (p.emergency_protocol.meals = []),
    'emergency_protocol.meals',
  ],
  // §4.5 recipes
  ['no recipes', 'recipes', (p) => (p.recipes = []), 'recipes'],
  ['fractional servings', 'recipes', (p) => (p.recipes[0].servings = 1.5), 'recipes.0.servings'],
  [
    'an ingredient without amount_g',
    'recipes',
    (p) => delete p.recipes[0].ingredients[0].amount_g,
    'recipes.0.ingredients.0.amount_g',
  ],
  [
    'macros without fiber_g',
    'recipes',
    (p) => delete p.recipes[0].macros_per_serving.fiber_g,
    'recipes.0.macros_per_serving.fiber_g',
  ],
  [
    'storage without freezer_friendly',
    'recipes',
    (p) => delete p.recipes[0].storage.freezer_friendly,
    'recipes.0.storage.freezer_friendly',
  ],
  // §4.6 training_input
  [
    'a wrong current_phase',
    'training_input',
    (p) => (p.client_data.current_phase = 'bulk'),
    'client_data.current_phase',
  ],
  [
    'a wrong cycle_phase',
    'training_input',
    (p) => (p.client_data.cycle_phase = 'ovulation'),
    'client_data.cycle_phase',
  ],
  [
    'a cycle day of 0',
    'training_input',
    (p) => (p.client_data.menstrual_cycle_day = 0),
    'client_data.menstrual_cycle_day',
  ],
  [
    'a logged set without weight_kg',
    'training_input',
    (p) => delete p.progress_data.training_log[0].weight_kg,
    'progress_data.training_log.0.weight_kg',
  ],
  [
    'a missing deload_recommended',
    'training_input',
    (p) => delete p.scientist_triggers.deload_recommended,
    'scientist_triggers.deload_recommended',
  ],
  // §4.7 training_program
  [
    'a frequency that does not match the sessions',
    'training_program',
    (p) => (p.program.frequency = 3),
    'program.frequency',
  ],
  [
    'a session on a wrong day',
    'training_program',
    (p) => (p.program.sessions[0].day = 'mon'),
    'program.sessions.0.day',
  ],
  [
    'an RPE of 11',
    'training_program',
    (p) => (p.program.sessions[0].exercises[0].target_rpe = 11),
    'program.sessions.0.exercises.0.target_rpe',
  ],
  [
    'a fractional set volume',
    'training_program',
    (p) => (p.weekly_volume_summary.glutes = 9.5),
    'weekly_volume_summary.glutes',
  ],
  // §4.8 health_query
  ['a wrong query_type', 'health_query', (p) => (p.query_type = 'emergency'), 'query_type'],
  ['an unknown requesting_agent', 'health_query', (p) => (p.requesting_agent = 'TRAINER'), 'requesting_agent'],
  ['a user_context without bmi', 'health_query', (p) => delete p.user_context.bmi, 'user_context.bmi'],
  // §4.9 medical_context
  ['a wrong urgency', 'medical_context', (p) => (p.urgency = 'asap'), 'urgency'],
  ['a wrong pipeline_action', 'medical_context', (p) => (p.pipeline_action = 'stop'), 'pipeline_action'],
  ['an empty disclaimer', 'medical_context', (p) => (p.disclaimer = ''), 'disclaimer'],
  ['a blank disclaimer', 'medical_context', (p) => (p.disclaimer = '   '), 'disclaimer'],
  ['a missing disclaimer', 'medical_context', (p) => delete p.disclaimer, 'disclaimer'],
  ['a referral without a target', 'medical_context', (p) => (p.referral_target = null), 'referral_target'],
  ['a missing timeline (null is the way to say none)', 'medical_context', (p) => delete p.timeline, 'timeline'],
  ['a source without year', 'medical_context', (p) => delete p.sources[0].year, 'sources.0.year'],
];

describe('NutritionPayloadSchemas', () => {
  it('has one schema per data_type', () => {
    expect(Object.keys(NutritionPayloadSchemas).sort()).toEqual([...NutritionDataTypeSchema.options].sort());
  });

  it.each(NutritionDataTypeSchema.options)('accepts the example %s payload unchanged', (dataType) => {
    const payload = payloadCopy(dataType);
    expect(NutritionPayloadSchemas[dataType].parse(payload)).toEqual(payload);
  });

  it.each(REJECTED)('rejects %s (%s) at its path', (_name, dataType, breakIt, path) => {
    const payload = payloadCopy(dataType);
    breakIt(payload);
    expect(issuePaths(NutritionPayloadSchemas[dataType], payload)).toEqual([path]);
  });

  it.each(NutritionDataTypeSchema.options)('rejects an unknown field in %s', (dataType) => {
    const payload = { ...payloadCopy(dataType), surprise: true };
    expect(issuesOf(NutritionPayloadSchemas[dataType], payload)).toEqual([
      { path: '', message: 'Unrecognized key: "surprise"' },
    ]);
  });

  it('accepts adaptation complete from week 4 on', () => {
    const payload = { ...payloadCopy('macro_targets'), weeks_on_program: 4, adaptation_period_complete: true };
    expect(issuesOf(NutritionPayloadSchemas.macro_targets, payload)).toEqual([]);
  });

  it('accepts the optional intake fields a brain needs', () => {
    const payload = { ...payloadCopy('intake_data'), sex: 'male', available_days: ['tuesday'], weeks_on_program: 6 };
    expect(issuesOf(NutritionPayloadSchemas.intake_data, payload)).toEqual([]);
  });

  it('accepts reps as a count or a scheme', () => {
    const payload = payloadCopy('training_program');
    payload.program.sessions[0].exercises[0].reps = 10;
    expect(issuesOf(NutritionPayloadSchemas.training_program, payload)).toEqual([]);
  });

  it('accepts an empty substitution bank and tiers 0, 1 and 2', () => {
    const plan = { ...payloadCopy('weekly_meal_plan'), substitution_bank: {} };
    expect(issuesOf(NutritionPayloadSchemas.weekly_meal_plan, plan)).toEqual([]);
    for (const tier of [0, 1, 2]) {
      const strategy = { ...payloadCopy('nutrition_strategy'), current_tier: tier };
      expect(issuesOf(NutritionPayloadSchemas.nutrition_strategy, strategy)).toEqual([]);
    }
  });
});
