import { z } from 'zod';
import { AvailableDaysSchema } from './weekday.ts';
import { rejectReplacedFieldNames } from './canonical-fields.ts';
import {
  AppetiteLevelSchema,
  CookingSkillSchema,
  EquipmentAccessSchema,
  FoodAversionsSchema,
  GymAnxietyLevelSchema,
  MedicalHistorySchema,
  MenstrualStatusSchema,
  SexSchema,
  TrainingExperienceSchema,
  TrainingPhaseSchema,
  WeeksOnProgramSchema,
} from './client-profile.ts';

/** §4.1 INTAKE -> SCIENTIST (`intake_data`): the completed intake questionnaire. */
export const IntakeDataSchema = rejectReplacedFieldNames(
  z.strictObject({
    age: z.number().int().min(13).max(120),
    height_cm: z.number().positive().max(300),
    /** Morning, fasted, post-void. */
    current_weight_kg: z.number().positive().max(400),
    target_weight_kg: z.number().positive().max(400),
    training_phase: TrainingPhaseSchema,
    /** Self-reported baseline. */
    estimated_daily_intake_kcal: z.number().positive().max(10_000),
    /** NEAT proxy. */
    avg_daily_steps: z.number().int().min(0).max(100_000),
    menstrual_status: MenstrualStatusSchema,
    training_experience: TrainingExperienceSchema,
    food_aversions: FoodAversionsSchema,
    appetite_level: AppetiteLevelSchema,
    cooking_skill: CookingSkillSchema,
    partner_cooks: z.boolean(),
    equipment_access: EquipmentAccessSchema,
    gym_anxiety_level: GymAnxietyLevelSchema,
    medical_history: MedicalHistorySchema,
    /** Not in §4.1: the Mifflin-St Jeor constant depends on it; absent means female. */
    sex: SexSchema.optional(),
    /** Not in §4.1: the COACH needs it (§4.6 `client_data.available_days`); absent means unknown. */
    available_days: AvailableDaysSchema.optional(),
    /** Not in §4.1: lets a later intake resume a program (§4.2 `weeks_on_program`); absent means 0. */
    weeks_on_program: WeeksOnProgramSchema.optional(),
  }),
);
export type IntakeData = z.infer<typeof IntakeDataSchema>;
