import {
  reps,
  hold,
  HYPERTROPHY_GOALS as hyper,
  STRENGTH_GOALS as strong,
  type LibraryExercise,
} from './exercise-library-entry.ts';

/** Glutes, calves, abductors and adductors. */
export const GLUTE_CALF_AND_HIP_EXERCISES: readonly LibraryExercise[] = [
  // Glutes
  reps(
    {
      id: 'barbell-hip-thrust',
      name: 'Barbell Hip Thrust',
      primary: ['Glutes'],
      secondary: ['Hamstrings'],
      equipment: ['barbell', 'bench'],
      goals: strong,
    },
    [4, 10, 90],
  ),
  reps(
    {
      id: 'glute-bridge',
      name: 'Glute Bridge',
      primary: ['Glutes'],
      secondary: ['Hamstrings', 'Lower Back'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'single-leg-glute-bridge',
      name: 'Single-Leg Glute Bridge',
      primary: ['Glutes'],
      secondary: ['Hamstrings'],
      equipment: [],
      goals: ['strength', 'stability'],
    },
    [3, 12, 45],
  ),
  reps(
    {
      id: 'cable-kickback',
      name: 'Cable Glute Kickback',
      primary: ['Glutes'],
      secondary: ['Hamstrings'],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'sumo-deadlift',
      name: 'Sumo Deadlift',
      primary: ['Glutes', 'Adductors', 'Hamstrings'],
      secondary: ['Quadriceps', 'Lower Back', 'Trapezius'],
      equipment: ['barbell'],
      goals: strong,
    },
    [4, 5, 180],
  ),
  hold(
    {
      id: 'pigeon-stretch',
      name: 'Pigeon Stretch',
      primary: ['Glutes'],
      secondary: ['Abductors'],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 45, 10],
  ),
  // Calves
  reps(
    {
      id: 'standing-calf-raise',
      name: 'Standing Calf Raise',
      primary: ['Calves'],
      secondary: [],
      equipment: [],
      goals: ['endurance', 'hypertrophy'],
    },
    [3, 20, 45],
  ),
  reps(
    {
      id: 'dumbbell-calf-raise',
      name: 'Dumbbell Calf Raise',
      primary: ['Calves'],
      secondary: [],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'seated-dumbbell-calf-raise',
      name: 'Seated Dumbbell Calf Raise',
      primary: ['Calves'],
      secondary: [],
      equipment: ['dumbbell', 'bench'],
      goals: ['hypertrophy'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'leg-press-calf-raise',
      name: 'Leg Press Calf Raise',
      primary: ['Calves'],
      secondary: [],
      equipment: ['leg_press_machine'],
      goals: hyper,
    },
    [3, 15, 45],
  ),
  hold(
    {
      id: 'wall-calf-stretch',
      name: 'Wall Calf Stretch',
      primary: ['Calves'],
      secondary: [],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
  // Abductors
  reps(
    {
      id: 'banded-lateral-walk',
      name: 'Banded Lateral Walk',
      primary: ['Abductors'],
      secondary: ['Glutes'],
      equipment: ['resistance_band'],
      goals: ['stability', 'injury_prevention'],
      role: 'warmup',
    },
    [2, 15, 30],
  ),
  reps(
    {
      id: 'side-lying-hip-abduction',
      name: 'Side-Lying Hip Abduction',
      primary: ['Abductors'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['stability', 'endurance'],
    },
    [3, 15, 30],
  ),
  reps(
    {
      id: 'clamshell',
      name: 'Clamshell',
      primary: ['Abductors'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['stability', 'injury_prevention'],
      role: 'warmup',
    },
    [2, 15, 30],
  ),
  reps(
    {
      id: 'hip-abduction-machine',
      name: 'Hip Abduction Machine',
      primary: ['Abductors'],
      secondary: ['Glutes'],
      equipment: ['hip_abduction_machine'],
      goals: ['hypertrophy', 'stability'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'cable-hip-abduction',
      name: 'Cable Hip Abduction',
      primary: ['Abductors'],
      secondary: ['Glutes'],
      equipment: ['cable_machine'],
      goals: ['hypertrophy', 'stability'],
    },
    [3, 12, 45],
  ),
  // Adductors
  hold(
    {
      id: 'copenhagen-plank',
      name: 'Copenhagen Plank',
      primary: ['Adductors'],
      secondary: ['Abs'],
      equipment: ['bench'],
      goals: ['strength', 'injury_prevention'],
    },
    [3, 20, 45],
  ),
  reps(
    {
      id: 'hip-adduction-machine',
      name: 'Hip Adduction Machine',
      primary: ['Adductors'],
      secondary: [],
      equipment: ['hip_adduction_machine'],
      goals: ['hypertrophy', 'stability'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'cossack-squat',
      name: 'Cossack Squat',
      primary: ['Adductors', 'Quadriceps'],
      secondary: ['Glutes', 'Hamstrings'],
      equipment: [],
      goals: ['mobility', 'strength'],
    },
    [3, 8, 60],
  ),
  reps(
    {
      id: 'side-lunge',
      name: 'Side Lunge',
      primary: ['Adductors', 'Quadriceps'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['strength', 'mobility'],
    },
    [3, 10, 60],
  ),
  reps(
    {
      id: 'sumo-goblet-squat',
      name: 'Sumo Goblet Squat',
      primary: ['Quadriceps', 'Adductors'],
      secondary: ['Glutes'],
      equipment: ['dumbbell'],
      goals: hyper,
    },
    [3, 12, 75],
  ),
  hold(
    {
      id: 'butterfly-stretch',
      name: 'Butterfly Stretch',
      primary: ['Adductors'],
      secondary: [],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
];
