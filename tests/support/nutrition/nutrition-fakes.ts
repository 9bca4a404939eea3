import { makeEnvelope } from '../../../actors/nutrition/envelope-factory.ts';
import type { Dispatch } from '../../../machines/nutrition/pipeline-context.ts';
import type { BrainOutput } from '../../../actors/nutrition/nutrition-brain.ts';
import type { NutritionAgent, PipelineStageAgent } from '../../../protocol/nutrition/agents.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../../protocol/nutrition/envelope.ts';
import type { NutritionDataType, PayloadOf } from '../../../protocol/nutrition/index.ts';
import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';

/** How a fake agent answers: as it should, or with one of the troubles of §5, §6 and §8. */
export type FakeVariant = 'ok' | 'redFlag' | 'upstream' | 'conflict' | 'invalid';

const SLOTS = ['breakfast', 'lunch', 'snack', 'dinner', 'presleep'] as const;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const UPSTREAM: Partial<Record<NutritionAgent, NutritionAgent>> = {
  NUTRITIONIST: 'SCIENTIST',
  DIETITIAN: 'NUTRITIONIST',
  CHEF: 'DIETITIAN',
};
const UPSTREAM_TYPE: Partial<Record<NutritionAgent, NutritionDataType>> = {
  NUTRITIONIST: 'macro_targets',
  DIETITIAN: 'nutrition_strategy',
  CHEF: 'weekly_meal_plan',
};

export const payload = <D extends NutritionDataType>(dataType: D): PayloadOf<D> =>
  structuredClone(VALID_PAYLOADS[dataType]);

/** A consistent week: each slot a fifth of the daily targets, its first alternative the recipe id. */
function mealPlanFor(strategy: PayloadOf<'nutrition_strategy'>, scale = 1): PayloadOf<'weekly_meal_plan'> {
  const plan = payload('weekly_meal_plan');
  const slotSpec = {
    protein_g: Math.round((strategy.protein_g * scale) / 5),
    calories: Math.round((strategy.target_intake_kcal * scale) / 5),
    carbs_g: Math.round((strategy.carbs_g * scale) / 5),
    fat_g: Math.round((strategy.fat_g * scale) / 5),
    prep_time_max_min: 20,
    constraints: [],
  };
  plan.weekly_template = Object.fromEntries(
    DAYS.map((day) => [
      day,
      Object.fromEntries(
        SLOTS.map((slot) => [
          slot,
          { slot_spec: { ...slotSpec }, alternatives: [`r-${slot}`], primary_protein: 'eggs', cuisine_theme: null },
        ]),
      ),
    ]),
  ) as unknown as PayloadOf<'weekly_meal_plan'>['weekly_template'];
  return plan;
}

function recipesFor(plan: PayloadOf<'weekly_meal_plan'>, scale = 1): PayloadOf<'recipes'> {
  const base = payload('recipes').recipes[0]!;
  const monday = plan.weekly_template.monday!;
  return {
    recipes: SLOTS.map((slot) => {
      const spec = monday[slot]!.slot_spec;
      return {
        ...structuredClone(base),
        recipe_id: `r-${slot}`,
        recipe_name: `${slot} bowl`,
        macros_per_serving: {
          protein_g: spec.protein_g * scale,
          fat_g: spec.fat_g * scale,
          carbs_g: spec.carbs_g * scale,
          fiber_g: 5,
          calories: spec.calories * scale,
        },
      };
    }),
  };
}

/** What a fake agent sends for one dispatch, in the shape the nutrition brains use. */
export function fakeOutput(
  dispatch: Dispatch,
  variant: FakeVariant = 'ok',
  options: { rerun?: PipelineStageAgent[]; physicianAction?: 'continue' | 'pause_pending_referral' | 'abort' } = {},
): BrainOutput {
  const input = dispatch.envelope;
  const agent = input.to_agent;
  let index = 0;
  const send = <D extends NutritionDataType>(to: NutritionAgent, dataType: D, body: PayloadOf<D>): NutritionEnvelope =>
    makeEnvelope({
      from: agent,
      to,
      dataType,
      payload: body as never,
      runId: input.pipeline_run_id,
      idSeed: [input.message_id, agent, index++],
    }) as NutritionEnvelope;
  const conflict = variant === 'conflict' ? 1.5 : 1;
  const envelopes: NutritionEnvelope[] = [];

  if (variant === 'upstream' && UPSTREAM[agent]) {
    envelopes.push(
      send(UPSTREAM[agent]!, 'upstream_data_request', {
        requesting_agent: agent,
        upstream_agent: UPSTREAM[agent]!,
        upstream_data_type: UPSTREAM_TYPE[agent]!,
        missing_fields: ['protein_g'],
        details: 'protein target missing',
      }),
    );
    return { envelopes };
  }
  if (agent === 'INTAKE')
    envelopes.push(send('SCIENTIST', 'intake_data', (input as EnvelopeOf<'intake_data'>).payload));
  if (agent === 'SCIENTIST' && input.data_type === 'weekly_checkin') {
    const rerun = options.rerun ?? [];
    const adjustment = payload('adjustment_result');
    const body: PayloadOf<'adjustment_result'> =
      rerun.length === 0
        ? {
            triggers_fired: [],
            adjustment_type: null,
            agents_re_run: [],
            agents_unchanged: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
            notes: ['no change'],
          }
        : {
            ...adjustment,
            triggers_fired: ['waist_hip_ratio_flag'],
            adjustment_type: 'waist_hip_ratio_flag',
            adjustment_amount_kcal: undefined,
            new_target_intake_kcal: undefined,
            new_macros: undefined,
            agents_re_run: rerun,
            agents_unchanged: (['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'] as const).filter(
              (a) => !rerun.includes(a),
            ),
          };
    for (const key of ['adjustment_amount_kcal', 'new_target_intake_kcal', 'new_macros'] as const)
      if (body[key as keyof typeof body] === undefined) delete (body as Record<string, unknown>)[key];
    envelopes.push(send('USER', 'adjustment_result', body));
    if (rerun.includes('NUTRITIONIST')) envelopes.push(send('NUTRITIONIST', 'macro_targets', payload('macro_targets')));
    if (rerun.includes('COACH')) envelopes.push(send('COACH', 'training_input', payload('training_input')));
  } else if (agent === 'SCIENTIST') {
    envelopes.push(
      send('NUTRITIONIST', 'macro_targets', payload('macro_targets')),
      send('COACH', 'training_input', payload('training_input')),
    );
  }
  if (agent === 'NUTRITIONIST') {
    const targets = (input as EnvelopeOf<'macro_targets'>).payload;
    const strategy = payload('nutrition_strategy');
    Object.assign(strategy, {
      target_intake_kcal: targets.target_intake_kcal + (variant === 'conflict' ? 100 : 0),
      protein_g: targets.protein_g,
      fat_g: targets.fat_g,
      carbs_g: targets.carbs_g,
    });
    envelopes.push(send('DIETITIAN', 'nutrition_strategy', strategy));
  }
  if (agent === 'DIETITIAN')
    envelopes.push(
      send('CHEF', 'weekly_meal_plan', mealPlanFor((input as EnvelopeOf<'nutrition_strategy'>).payload, conflict)),
    );
  if (agent === 'CHEF')
    envelopes.push(send('USER', 'recipes', recipesFor((input as EnvelopeOf<'weekly_meal_plan'>).payload, conflict)));
  if (agent === 'COACH') envelopes.push(send('USER', 'training_program', payload('training_program')));
  if (agent === 'PHYSICIAN') {
    const query = input as EnvelopeOf<'health_query'>;
    const action = options.physicianAction ?? 'continue';
    envelopes.push(
      send(query.from_agent, 'medical_context', {
        ...payload('medical_context'),
        pipeline_action: action,
        urgency: action === 'abort' ? 'urgent' : 'soon',
      }),
    );
  }
  if (variant === 'redFlag' && agent !== 'PHYSICIAN' && agent !== 'INTAKE') {
    envelopes.unshift(send('PHYSICIAN', 'health_query', { ...payload('health_query'), requesting_agent: agent }));
  }
  if (variant === 'invalid') {
    const [first] = envelopes;
    if (first)
      envelopes[0] = {
        ...first,
        payload: { ...(first.payload as object), daily_calories: 1 },
      } as unknown as NutritionEnvelope;
  }
  return { envelopes };
}
