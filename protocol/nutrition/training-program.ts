import { z } from 'zod';
import { RecordKeySchema, rejectReplacedFieldNames } from './canonical-fields.ts';
import { WeekdaySchema } from './weekday.ts';

/** One exercise of a session (§4.7 `program.sessions[].exercises[]`). */
export const ProgramExerciseSchema = z.strictObject({
  name: z.string().min(1),
  sets: z.number().int().min(1).max(20),
  /** A count (10) or a range or scheme ("8-12", "AMRAP"). */
  reps: z.union([z.number().int().min(1).max(100), z.string().min(1)]),
  rest_sec: z.number().int().min(0).max(900),
  notes: z.string(),
  target_rpe: z.number().min(1).max(10),
  progression_rule: z.string().min(1),
});
export type ProgramExercise = z.infer<typeof ProgramExerciseSchema>;

/** One training session of the week (§4.7 `program.sessions[]`). */
export const ProgramSessionSchema = z.strictObject({
  day: WeekdaySchema,
  focus: z.string().min(1),
  warmup: z.array(z.string().min(1)),
  exercises: z.array(ProgramExerciseSchema).min(1),
});
export type ProgramSession = z.infer<typeof ProgramSessionSchema>;

/** §4.7 `program`: the current phase and its weekly sessions. */
export const ProgramSchema = z
  .strictObject({
    /** The COACH's own phase name (e.g. "foundation"). */
    phase: z.string().min(1),
    phase_week: z.number().int().min(1).max(52),
    /** Sessions per week. */
    frequency: z.number().int().min(1).max(7),
    total_weeks_remaining_in_phase: z.number().int().min(0).max(52),
    sessions: z.array(ProgramSessionSchema).min(1).max(7),
  })
  .refine((program) => program.sessions.length === program.frequency, {
    message: 'program.frequency must equal the number of sessions.',
    path: ['frequency'],
  });
export type Program = z.infer<typeof ProgramSchema>;

/** §4.7 COACH -> OUTPUT (`training_program`). */
export const TrainingProgramSchema = rejectReplacedFieldNames(
  z.strictObject({
    program: ProgramSchema,
    progression_rules: z.array(z.string().min(1)),
    recovery_protocol: z.array(z.string().min(1)),
    phase_transition_criteria: z.array(z.string().min(1)),
    /** Working sets per week, keyed by muscle group. */
    weekly_volume_summary: z.record(RecordKeySchema, z.number().int().min(0).max(100)),
  }),
);
export type TrainingProgram = z.infer<typeof TrainingProgramSchema>;
