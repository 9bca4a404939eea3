import { z } from 'zod';

// The client vocabulary of §4.1, shared by intake_data, macro_targets, training_input and
// health_query. Enum values are exactly the spec's.

/** §4.1 `training_phase`. */
export const TrainingPhaseSchema = z.enum(['pre_training', 'active_training']);
export type TrainingPhase = z.infer<typeof TrainingPhaseSchema>;

/** §4.1 `menstrual_status`. */
export const MenstrualStatusSchema = z.enum(['regular', 'irregular', 'amenorrhea']);
export type MenstrualStatus = z.infer<typeof MenstrualStatusSchema>;

/** §4.1 `training_experience`. */
export const TrainingExperienceSchema = z.enum(['none', 'beginner', 'intermediate']);
export type TrainingExperience = z.infer<typeof TrainingExperienceSchema>;

/** §4.1 `appetite_level`. */
export const AppetiteLevelSchema = z.enum(['low', 'normal', 'high']);
export type AppetiteLevel = z.infer<typeof AppetiteLevelSchema>;

/** §4.1 `cooking_skill`. */
export const CookingSkillSchema = z.enum(['basic', 'intermediate', 'advanced']);
export type CookingSkill = z.infer<typeof CookingSkillSchema>;

/** §4.1 `equipment_access`. */
export const EquipmentAccessSchema = z.enum(['home_minimal', 'home_full', 'commercial_gym', 'both']);
export type EquipmentAccess = z.infer<typeof EquipmentAccessSchema>;

/** §4.1 `gym_anxiety_level`. */
export const GymAnxietyLevelSchema = z.enum(['high', 'moderate', 'low']);
export type GymAnxietyLevel = z.infer<typeof GymAnxietyLevelSchema>;

/** Biological sex, for the Mifflin-St Jeor constant. Not in §4.1; brains default to female. */
export const SexSchema = z.enum(['female', 'male']);
export type Sex = z.infer<typeof SexSchema>;

/** Foods the client will not eat: §4.1 says this always includes peanut butter and nut butters. */
export const FoodAversionsSchema = z
  .array(z.string().min(1))
  .refine((foods) => foods.includes('peanut_butter') && foods.includes('nut_butters'), {
    message: 'food_aversions must always include "peanut_butter" and "nut_butters" (spec §4.1).',
  });

/** §4.1 `medical_history`: medications, conditions and injuries, each a list (possibly empty). */
export const MedicalHistorySchema = z.strictObject({
  medications: z.array(z.string().min(1)),
  conditions: z.array(z.string().min(1)),
  injuries: z.array(z.string().min(1)),
});

/** Weeks since the program started: 0 at intake. */
export const WeeksOnProgramSchema = z.number().int().min(0).max(520);
