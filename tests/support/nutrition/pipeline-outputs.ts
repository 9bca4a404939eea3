/** The outputs of a run once it is output_ready (its view's `outputs` keys, its A2A artifacts), sorted. */
export const PIPELINE_OUTPUTS: readonly string[] = [
  'macro_targets',
  'nutrition_strategy',
  'recipes',
  'training_input',
  'training_program',
  'weekly_meal_plan',
];
