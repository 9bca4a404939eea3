import { z } from 'zod';
import { ExerciseGroupSchema } from './exercise-group.ts';
import { MuscleSchema } from './muscle.ts';

/** The four exercise types of spec 001 §6.4: exactly these, no others. */
export const ExerciseTypeSchema = z.enum(['reps', 'hold', 'duration', 'intervals']);
export type ExerciseType = z.infer<typeof ExerciseTypeSchema>;

/** How far a list of shares may sum away from 1.0 ("shares sum to ~1.0"). */
const SHARE_SUM_TOLERANCE = 0.05;

function sharesSumToOne(shares: readonly { share: number }[]): boolean {
  const sum = shares.reduce((total, entry) => total + entry.share, 0);
  return Math.abs(sum - 1) <= SHARE_SUM_TOLERANCE;
}

/** One muscle worked by an exercise and its share of the work. */
export const MuscleShareSchema = z.strictObject({
  muscle: MuscleSchema,
  share: z.number().min(0).max(1).describe('0.0 to 1.0; all shares of the exercise sum to ~1.0'),
});
export type MuscleShare = z.infer<typeof MuscleShareSchema>;

/** One goal an exercise serves and its share. */
export const GoalShareSchema = z.strictObject({
  goal: z.string().min(1).max(60).describe('Goal category, e.g. "strength", "endurance"'),
  share: z.number().min(0).max(1).describe('0.0 to 1.0; all shares of the exercise sum to ~1.0'),
});
export type GoalShare = z.infer<typeof GoalShareSchema>;

export const MuscleSharesSchema = z
  .array(MuscleShareSchema)
  .min(1)
  .max(16)
  .refine(sharesSumToOne, { message: `muscle shares must sum to 1.0 (±${SHARE_SUM_TOLERANCE})` })
  .refine((list) => new Set(list.map((m) => m.muscle)).size === list.length, {
    message: 'each muscle may appear once',
  });

export const GoalSharesSchema = z
  .array(GoalShareSchema)
  .min(1)
  .max(10)
  .refine(sharesSumToOne, { message: `goal shares must sum to 1.0 (±${SHARE_SUM_TOLERANCE})` })
  .refine((list) => new Set(list.map((g) => g.goal)).size === list.length, {
    message: 'each goal may appear once',
  });

const seconds = (max: number) => z.int().min(0).max(max);

/** Fields every exercise carries, whatever its type. */
export const EXERCISE_COMMON_FIELDS = {
  exercise_name: z.string().min(1).max(120).describe('Name of the exercise'),
  muscles_utilized: MuscleSharesSchema.describe('Muscles worked; shares sum to ~1.0'),
  goals_addressed: GoalSharesSchema.describe('Goals addressed; shares sum to ~1.0'),
  reasoning: z.string().min(1).max(1000).describe('Brief explanation for selecting this exercise'),
};

/** Prescription fields of each type; the required ones follow the table of spec 001 §6.4. */
export const EXERCISE_TYPE_FIELDS = {
  reps: {
    sets: z.int().min(1).max(20),
    reps: z.array(z.int().min(1).max(200)).min(1).max(20).describe('Target reps of each set, one entry per set'),
    rest_sec: seconds(900).describe('Rest between sets in seconds'),
    load_each: z.array(z.number().min(0).max(2000)).min(1).max(20).optional().describe('Load of each set'),
    load_unit: z.enum(['kg', 'lb']).optional().describe('Unit of load_each; required with load_each'),
  },
  hold: {
    sets: z.int().min(1).max(20),
    hold_sec: z.array(z.int().min(1).max(1800)).min(1).max(20).describe('Hold time of each set, one entry per set'),
    rest_sec: seconds(900).describe('Rest between sets in seconds'),
  },
  duration: {
    duration_min: z.number().positive().max(600).describe('Continuous effort in minutes'),
    distance: z.number().positive().max(1000).optional(),
    distance_unit: z.enum(['km', 'mi', 'm']).optional().describe('Unit of distance; required with distance'),
    target_pace: z.string().min(1).max(40).optional().describe('e.g. "5:30/km"'),
  },
  intervals: {
    rounds: z.int().min(1).max(100),
    work_sec: z.int().min(1).max(3600),
    rest_sec: seconds(3600).describe('Rest between rounds in seconds'),
  },
} as const;

type Issue = { path: string[]; message: string };

/** Cross-field rules of one exercise: per-set lists match `sets`; a quantity needs its unit. */
function exercisePrescriptionIssues(exercise: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const sets = exercise['sets'];
  for (const list of ['reps', 'load_each', 'hold_sec']) {
    const value = exercise[list];
    if (typeof sets === 'number' && Array.isArray(value) && value.length !== sets) {
      issues.push({ path: [list], message: `${list} needs one entry per set (${sets}), got ${value.length}` });
    }
  }
  if (exercise['load_each'] !== undefined && exercise['load_unit'] === undefined) {
    issues.push({ path: ['load_unit'], message: 'load_unit is required when load_each is given' });
  }
  if (exercise['distance'] !== undefined && exercise['distance_unit'] === undefined) {
    issues.push({ path: ['distance_unit'], message: 'distance_unit is required when distance is given' });
  }
  return issues;
}

function checkPrescription(exercise: Record<string, unknown>, ctx: z.core.$RefinementCtx): void {
  for (const issue of exercisePrescriptionIssues(exercise)) ctx.addIssue({ code: 'custom', ...issue });
}

/**
 * Builds the exercise union (discriminated by `exercise_type`) with extra slot fields, so that
 * the generated exercise, the swap replacement and the stored exercise share one definition.
 */
export function exerciseUnion<Extra extends z.core.$ZodLooseShape>(extra: Extra) {
  const { reps, hold, duration, intervals } = EXERCISE_TYPE_FIELDS;
  const common = EXERCISE_COMMON_FIELDS;
  return z.discriminatedUnion('exercise_type', [
    z.strictObject({ exercise_type: z.literal('reps'), ...common, ...extra, ...reps }).superRefine(checkPrescription),
    z.strictObject({ exercise_type: z.literal('hold'), ...common, ...extra, ...hold }).superRefine(checkPrescription),
    z
      .strictObject({ exercise_type: z.literal('duration'), ...common, ...extra, ...duration })
      .superRefine(checkPrescription),
    z
      .strictObject({ exercise_type: z.literal('intervals'), ...common, ...extra, ...intervals })
      .superRefine(checkPrescription),
  ]);
}

/** Where an exercise sits: its 1-indexed order and its optional group. */
export const EXERCISE_SLOT_FIELDS = {
  order: z.int().min(1).max(100).describe('Position in the workout, 1-indexed'),
  group: ExerciseGroupSchema.optional().describe('Optional grouping for supersets, circuits, warmups, ...'),
};

/** One exercise of a workout as the agent writes it (spec 001 §6.4). */
export const ExerciseSchema = exerciseUnion(EXERCISE_SLOT_FIELDS);
export type Exercise = z.infer<typeof ExerciseSchema>;
