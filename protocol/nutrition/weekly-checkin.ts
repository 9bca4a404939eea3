import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import { CycleDaySchema, CyclePhaseSchema } from './cycle-phase.ts';
import { BodyWeightKgSchema } from './nutrient-amounts.ts';

/** A §7.2 subjective marker: an integer on a 1-10 scale. */
const SubjectiveScoreSchema = z.number().int().min(1).max(10);

/** §7.1 `subjective_markers`. */
const SubjectiveMarkersSchema = z.strictObject({
  energy: SubjectiveScoreSchema,
  sleep_quality: SubjectiveScoreSchema,
  mood: SubjectiveScoreSchema,
  appetite: SubjectiveScoreSchema,
});

/** One exercise of §7.1 `training_log.exercises`: its best set this week. */
const CheckinExerciseSchema = z.strictObject({
  name: z.string().min(1),
  best_set: z.strictObject({
    /** Load per rep; 0 for bodyweight. */
    weight_kg: z.number().min(0).max(500),
    reps: z.number().int().min(1).max(100),
  }),
  progressed: z.boolean(),
});

/** §7.1 `training_log`. */
const CheckinTrainingLogSchema = z.strictObject({
  sessions_completed: z.number().int().min(0).max(14),
  exercises: z.array(CheckinExerciseSchema),
});

/** A girth in cm (waist, hip). */
const GirthCmSchema = z.number().positive().max(300);

/**
 * §7.1 USER -> SCIENTIST (`weekly_checkin`), with the §7.2 requirements. `weight_kg` is weekly.
 * `waist_cm` and `hip_cm` are required keys but biweekly: on the off week of the two-week cadence
 * both are `null`. They are measured together (the waist-to-hip rule of §7.3 needs both), so
 * both are numbers or both are null. Every other field is optional.
 */
export const WeeklyCheckinSchema = rejectReplacedFieldNames(
  z
    .strictObject({
      /** Morning, fasted, post-void body weight. */
      weight_kg: BodyWeightKgSchema,
      /** null on the off week of the biweekly cadence. */
      waist_cm: GirthCmSchema.nullable(),
      /** null on the off week of the biweekly cadence. */
      hip_cm: GirthCmSchema.nullable(),
      cycle_phase: CyclePhaseSchema.optional(),
      cycle_day: CycleDaySchema.optional(),
      training_log: CheckinTrainingLogSchema.optional(),
      subjective_markers: SubjectiveMarkersSchema.optional(),
      /** Days this week on the minimum viable day protocol (§4.4 `emergency_protocol`). */
      minimum_viable_days_count: z.number().int().min(0).max(7).optional(),
      notes: z.string().optional(),
    })
    .refine((checkin) => (checkin.waist_cm === null) === (checkin.hip_cm === null), {
      message: 'waist_cm and hip_cm are measured together: give both, or null for both on the off week.',
      path: ['hip_cm'],
    }),
);
export type WeeklyCheckin = z.infer<typeof WeeklyCheckinSchema>;
