import { z } from 'zod';

/** The 16 preset muscles of spec 001 §6.4; every `muscles_utilized` entry names one of them. */
export const MUSCLES = [
  'Chest',
  'Back',
  'Shoulders',
  'Biceps',
  'Triceps',
  'Abs',
  'Lower Back',
  'Quadriceps',
  'Hamstrings',
  'Glutes',
  'Calves',
  'Trapezius',
  'Abductors',
  'Adductors',
  'Forearms',
  'Neck',
] as const;

/** One of the 16 valid muscles, spelled exactly as the spec spells it. */
export const MuscleSchema = z.enum(MUSCLES);
export type Muscle = z.infer<typeof MuscleSchema>;
