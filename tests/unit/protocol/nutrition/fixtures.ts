import type { NutritionDataType, PayloadOf } from '../../../../protocol/nutrition/index.ts';

// Valid example payloads of every nutrition data_type, close to the spec's own examples. Tests
// copy and break them; `structuredClone` keeps the originals intact.

const mealSlot = () => ({
  slot_spec: {
    protein_g: 25,
    calories: 550,
    carbs_g: 70,
    fat_g: 18,
    prep_time_max_min: 15,
    constraints: ['no nut butters'],
  },
  alternatives: ['oats-01', 'eggs-02'],
  primary_protein: 'greek yogurt',
  cuisine_theme: null,
});
// Fresh objects per day and slot, so that breaking one slot in a test breaks only that slot.
const day = () => ({
  breakfast: mealSlot(),
  lunch: mealSlot(),
  snack: mealSlot(),
  dinner: mealSlot(),
  presleep: mealSlot(),
});

export const VALID_PAYLOADS: { [D in NutritionDataType]: PayloadOf<D> } = {
  intake_data: {
    age: 29,
    height_cm: 165,
    current_weight_kg: 52.4,
    target_weight_kg: 58,
    training_phase: 'pre_training',
    estimated_daily_intake_kcal: 1700,
    avg_daily_steps: 7500,
    menstrual_status: 'regular',
    training_experience: 'none',
    food_aversions: ['peanut_butter', 'nut_butters', 'olives'],
    appetite_level: 'low',
    cooking_skill: 'basic',
    partner_cooks: true,
    equipment_access: 'home_minimal',
    gym_anxiety_level: 'high',
    medical_history: { medications: [], conditions: [], injuries: ['left ankle sprain 2023'] },
  },
  macro_targets: {
    bmr_kcal: 1300,
    tdee_kcal: 2000,
    target_intake_kcal: 2400,
    protein_g: 95,
    protein_g_per_kg: 1.8,
    fat_g: 75,
    fat_percent: 28,
    carbs_g: 330,
    fiber_g_min: 25,
    hydration_L: 2.3,
    current_weight_kg: 52.4,
    target_weight_kg: 58,
    weekly_weight_target_kg: 0.3,
    training_phase: 'pre_training',
    weeks_on_program: 0,
    adaptation_period_complete: false,
    client_constraints: {
      food_aversions: ['peanut_butter', 'nut_butters'],
      appetite_level: 'low',
      cooking_skill: 'basic',
      partner_cooks: true,
    },
  },
  nutrition_strategy: {
    target_intake_kcal: 2400,
    protein_g: 95,
    fat_g: 75,
    carbs_g: 330,
    protein_distribution: { breakfast_g: 20, lunch_g: 25, snack_g: 10, dinner_g: 25, presleep_g: 15 },
    hardgainer_tactics: ['liquid calories', 'energy-dense snacks'],
    supplement_protocol: [{ supplement: 'creatine monohydrate', dose: '3 g', timing: 'any time, daily' }],
    hydration_target_L: 2.8,
    fiber_target_g: 28,
    special_considerations: ['separate calcium and iron by 2 hours'],
    cycle_adjustments: { follicular: 'baseline plan', luteal: 'add 100-150 kcal snack' },
    current_tier: 0,
  },
  weekly_meal_plan: {
    weekly_template: {
      monday: day(),
      tuesday: day(),
      wednesday: day(),
      thursday: day(),
      friday: day(),
      saturday: day(),
      sunday: day(),
    },
    substitution_bank: { breakfast: ['oats-01'], snack: ['smoothie-03'] },
    emergency_protocol: { meals: ['smoothie', 'sandwich', 'pasta'], calories: 1900, protein_g: 80 },
    solo_week_protocol: { description: 'batch cook twice, freeze portions', recipe_ids: ['chili-04'] },
    tracking_protocol: { weeks_1_4: 'weigh and log everything', weeks_5_plus: 'portion-based tracking' },
  },
  recipes: {
    recipes: [
      {
        recipe_name: 'Overnight oats',
        cuisine: 'american',
        servings: 1,
        ingredients: [{ item: 'oats', amount_g: 80, prep_notes: '' }],
        macros_per_serving: { protein_g: 25, fat_g: 12, carbs_g: 70, fiber_g: 8, calories: 500 },
        instructions: ['Mix everything.', 'Refrigerate overnight.'],
        time: { prep_min: 5, cook_min: 0 },
        batch_notes: 'Makes well in batches of 3.',
        storage: { fridge_days: 3, freezer_friendly: false },
        calorie_boost_options: ['add honey'],
      },
    ],
  },
  training_input: {
    client_data: {
      training_experience: 'none',
      equipment_access: 'home_minimal',
      gym_anxiety_level: 'high',
      weeks_on_program: 0,
      current_phase: 'pre_training',
      injuries: [],
      available_days: ['monday', 'wednesday', 'friday'],
      menstrual_cycle_day: null,
      cycle_phase: null,
    },
    progress_data: {
      training_log: [{ name: 'Goblet squat', sets: 3, reps: 10, weight_kg: 12 }],
      stall_detected: false,
      consecutive_stall_sessions: 0,
      sleep_hours_avg: null,
      step_count_avg: 7500,
    },
    scientist_triggers: { phase_transition_due: false, deload_recommended: false, adjustment_note: null },
  },
  training_program: {
    program: {
      phase: 'foundation',
      phase_week: 1,
      frequency: 1,
      total_weeks_remaining_in_phase: 3,
      sessions: [
        {
          day: 'monday',
          focus: 'full body',
          warmup: ['5 min walk'],
          exercises: [
            {
              name: 'Hip Thrust',
              sets: 3,
              reps: '8-12',
              rest_sec: 90,
              notes: '',
              target_rpe: 7,
              progression_rule: 'add 2.5 kg when all sets hit 12',
            },
          ],
        },
      ],
    },
    progression_rules: ['double progression'],
    recovery_protocol: ['7-9 h sleep'],
    phase_transition_criteria: ['4 weeks completed'],
    weekly_volume_summary: { glutes: 9, quads: 6 },
  },
  health_query: {
    query_type: 'red_flag',
    query: 'Missed periods for 3 months.',
    requesting_agent: 'SCIENTIST',
    user_context: {
      current_weight_kg: 52.4,
      bmi: 19.2,
      symptoms: ['amenorrhea'],
      menstrual_status: 'amenorrhea',
      training_weeks: 2,
      supplements_current: ['creatine'],
    },
  },
  medical_context: {
    response: 'Amenorrhea with low energy availability warrants evaluation.',
    sources: [
      { author: 'De Souza MJ', year: 2014, publication: 'Br J Sports Med', finding: 'Female athlete triad consensus.' },
    ],
    mechanism_explained: 'Low energy availability suppresses the hypothalamic axis.',
    timeline: null,
    referral_needed: true,
    referral_target: 'gynecologist',
    urgency: 'soon',
    pipeline_action: 'pause_pending_referral',
    disclaimer: 'This is not medical advice.',
  },
  pipeline_error: {
    error_type: 'timeout',
    failing_agent: 'SCIENTIST',
    details: 'SCIENTIST did not respond within 30 s, twice.',
    pipeline_run_id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
    recoverable: true,
    retry_count: 1,
    timeout_duration_ms: 30_000,
    input_hash: 'sha256:abc123',
  },
  upstream_data_request: {
    requesting_agent: 'DIETITIAN',
    upstream_agent: 'NUTRITIONIST',
    upstream_data_type: 'nutrition_strategy',
    missing_fields: ['protein_distribution.presleep_g'],
    details: 'Cannot size the presleep slot without its protein target.',
  },
  // §7.1, verbatim.
  weekly_checkin: {
    weight_kg: 56.2,
    waist_cm: 68.5,
    hip_cm: 92.5,
    cycle_phase: 'follicular',
    cycle_day: 10,
    training_log: {
      sessions_completed: 3,
      exercises: [{ name: 'Hip Thrust', best_set: { weight_kg: 45, reps: 12 }, progressed: true }],
    },
    subjective_markers: { energy: 7, sleep_quality: 8, mood: 7, appetite: 5 },
    minimum_viable_days_count: 1,
    notes: 'Felt bloated on Wednesday, skipped afternoon snack',
  },
  // §7.4, verbatim.
  adjustment_result: {
    triggers_fired: ['calorie_increase'],
    adjustment_type: 'calorie_increase',
    adjustment_amount_kcal: 200,
    new_target_intake_kcal: 2700,
    new_macros: { protein_g: 102, fat_g: 75, carbs_g: 393 },
    agents_re_run: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
    agents_unchanged: ['COACH'],
    notes: [
      'Gain rate 0.18 kg/week for 2 consecutive weeks — below 0.25 kg/week threshold',
      'Added 200 kcal primarily from carbohydrates',
    ],
  },
};

export const MESSAGE_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
export const RUN_ID = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';

/** A valid envelope around a copy of the example payload of `dataType`. */
export function validEnvelope<D extends NutritionDataType>(dataType: D) {
  return {
    message_id: MESSAGE_ID,
    from_agent: 'SCIENTIST',
    to_agent: 'NUTRITIONIST',
    data_type: dataType,
    payload: structuredClone(VALID_PAYLOADS[dataType]) as PayloadOf<D>,
    pipeline_run_id: RUN_ID,
    timestamp: '2026-02-09T14:30:00Z',
    version: '1.0',
  } as const;
}

/** A deep copy of the example payload of `dataType`, typed loosely so tests can break it. */
export function payloadCopy(dataType: NutritionDataType): Record<string, any> {
  return structuredClone(VALID_PAYLOADS[dataType]) as Record<string, any>;
}
