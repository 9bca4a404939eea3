import { z } from 'zod';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import {
  EquipmentAccessSchema,
  GymAnxietyLevelSchema,
  TrainingExperienceSchema,
  TrainingPhaseSchema,
  WeeksOnProgramSchema,
} from './client-profile.ts';
import { CycleDaySchema, CyclePhaseSchema } from './cycle-phase.ts';
import { AvailableDaysSchema } from './weekday.ts';

/** §4.6 `client_data`: who the COACH is programming for. */
export const TrainingClientDataSchema = z.strictObject({
  training_experience: TrainingExperienceSchema,
  equipment_access: EquipmentAccessSchema,
  gym_anxiety_level: GymAnxietyLevelSchema,
  weeks_on_program: WeeksOnProgramSchema,
  current_phase: TrainingPhaseSchema,
  injuries: z.array(z.string().min(1)),
  available_days: AvailableDaysSchema,
  /** null when the cycle is not tracked (e.g. amenorrhea, or not reported yet). */
  menstrual_cycle_day: CycleDaySchema.nullable(),
  /** null when the cycle is not tracked. */
  cycle_phase: CyclePhaseSchema.nullable(),
});
export type TrainingClientData = z.infer<typeof TrainingClientDataSchema>;

/** One exercise of the last session in §4.6 `training_log`: sets, reps and load. */
const LoggedExerciseSchema = z.strictObject({
  name: z.string().min(1),
  sets: z.number().int().min(1).max(20),
  reps: z.number().int().min(1).max(100),
  /** Load per rep; 0 for bodyweight. Named as in §7.1 `best_set.weight_kg`. */
  weight_kg: z.number().min(0).max(500),
});

/** §4.6 `progress_data`: what the check-ins say about training so far. */
const TrainingProgressDataSchema = z.strictObject({
  /** The last session's exercises; empty before the first session. */
  training_log: z.array(LoggedExerciseSchema),
  stall_detected: z.boolean(),
  consecutive_stall_sessions: z.number().int().min(0).max(100),
  /** null before any sleep was reported. */
  sleep_hours_avg: z.number().min(0).max(24).nullable(),
  step_count_avg: z.number().int().min(0).max(100_000),
});

/** §4.6 `scientist_triggers`: the SCIENTIST's signals to the COACH. */
export const ScientistTriggersSchema = z.strictObject({
  phase_transition_due: z.boolean(),
  deload_recommended: z.boolean(),
  /** null when there is nothing to add. */
  adjustment_note: z.string().min(1).nullable(),
});
export type ScientistTriggers = z.infer<typeof ScientistTriggersSchema>;

/** §4.6 SCIENTIST -> COACH (`training_input`). */
export const TrainingInputSchema = rejectReplacedFieldNames(
  z.strictObject({
    client_data: TrainingClientDataSchema,
    progress_data: TrainingProgressDataSchema,
    scientist_triggers: ScientistTriggersSchema,
  }),
);
export type TrainingInput = z.infer<typeof TrainingInputSchema>;
