import { z } from 'zod';
import { PipelineStageAgentSchema } from './agents.ts';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { DailyGramsSchema, DailyKcalSchema } from './nutrient-amounts.ts';

/**
 * What a weekly evaluation can trigger. The spec names only `calorie_increase` (§7.4); the rest
 * name the other rules of §7.3 and the rows of the §10 re-execution map, one value per row
 * (the calorie adjustment row split into its two directions).
 */
export const AdjustmentTriggerSchema = z.enum([
  'calorie_increase',
  'calorie_decrease',
  'protein_recalculation',
  'tdee_recalculation',
  'training_stall',
  'phase_transition',
  'waist_hip_ratio_flag',
  'compliance_issue',
  'tier_progression',
  'physician_advisory',
  'cycle_phase_adjustment',
]);
export type AdjustmentTrigger = z.infer<typeof AdjustmentTriggerSchema>;

/** §7.4 `new_macros`. */
export const NewMacrosSchema = z.strictObject({
  protein_g: DailyGramsSchema.positive(),
  fat_g: DailyGramsSchema.positive(),
  carbs_g: DailyGramsSchema,
});
export type NewMacros = z.infer<typeof NewMacrosSchema>;

const NotesSchema = z.array(z.string().min(1));
const StageAgentsSchema = z.array(PipelineStageAgentSchema);

/** True when no agent is listed twice across the re-run and unchanged lists. */
function agentsListedOnce(result: { agents_re_run: readonly string[]; agents_unchanged: readonly string[] }) {
  const all = [...result.agents_re_run, ...result.agents_unchanged];
  return new Set(all).size === all.length;
}
const AGENTS_LISTED_ONCE = {
  message: 'An agent is listed at most once across agents_re_run and agents_unchanged.',
  path: ['agents_unchanged'],
};

/**
 * §7.4 change form: at least one trigger fired; `adjustment_type` is the one acted on. A calorie
 * change carries its signed amount (+ for an increase, - for a decrease) and the new target.
 */
export const AdjustmentChangeSchema = z
  .strictObject({
    triggers_fired: z.array(AdjustmentTriggerSchema).min(1),
    adjustment_type: AdjustmentTriggerSchema,
    /** Signed kcal change; present exactly for calorie changes. */
    adjustment_amount_kcal: z.number().min(-1_000).max(1_000).optional(),
    /** The target after the change; present when the energy target changed. */
    new_target_intake_kcal: DailyKcalSchema.optional(),
    /** The macros after the change; present when macros changed. */
    new_macros: NewMacrosSchema.optional(),
    agents_re_run: StageAgentsSchema,
    agents_unchanged: StageAgentsSchema,
    notes: NotesSchema,
  })
  .refine((result) => result.triggers_fired.includes(result.adjustment_type), {
    message: 'adjustment_type must be one of triggers_fired.',
    path: ['adjustment_type'],
  })
  .refine(agentsListedOnce, AGENTS_LISTED_ONCE)
  .refine(
    (result) =>
      (result.adjustment_type !== 'calorie_increase' && result.adjustment_type !== 'calorie_decrease') ||
      (result.new_target_intake_kcal !== undefined &&
        result.adjustment_amount_kcal !== undefined &&
        (result.adjustment_type === 'calorie_increase'
          ? result.adjustment_amount_kcal > 0
          : result.adjustment_amount_kcal < 0)),
    {
      message:
        'A calorie change needs new_target_intake_kcal and adjustment_amount_kcal (> 0 for an increase, < 0 for a decrease).',
      path: ['adjustment_amount_kcal'],
    },
  );
export type AdjustmentChange = z.infer<typeof AdjustmentChangeSchema>;

/** §7.4 no-change form: nothing fired, nothing re-runs. */
const AdjustmentNoChangeSchema = z
  .strictObject({
    triggers_fired: z.tuple([]),
    adjustment_type: z.null(),
    agents_re_run: z.tuple([]),
    agents_unchanged: StageAgentsSchema,
    notes: NotesSchema,
  })
  .refine(agentsListedOnce, AGENTS_LISTED_ONCE);

/** §7.4 SCIENTIST -> USER (`adjustment_result`): the change form or the no-change form. */
export const AdjustmentResultSchema = rejectReplacedFieldNames(
  z.discriminatedUnion('adjustment_type', [AdjustmentChangeSchema, AdjustmentNoChangeSchema]),
);
export type AdjustmentResult = z.infer<typeof AdjustmentResultSchema>;
