import {
  hold,
  reps,
  HYPERTROPHY_GOALS as hyper,
  STRENGTH_GOALS as strong,
  type LibraryExercise,
} from './exercise-library-entry.ts';
import { GLUTE_CALF_AND_HIP_EXERCISES } from './exercise-library-glutes-calves.ts';

/** Quadriceps, hamstrings, glutes, calves, abductors and adductors. */
export const LOWER_BODY_EXERCISES: readonly LibraryExercise[] = [
  // Quadriceps
  reps(
    {
      id: 'barbell-back-squat',
      name: 'Barbell Back Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings', 'Lower Back', 'Adductors'],
      equipment: ['barbell', 'squat_rack'],
      goals: strong,
    },
    [4, 6, 180],
  ),
  reps(
    {
      id: 'front-squat',
      name: 'Barbell Front Squat',
      primary: ['Quadriceps'],
      secondary: ['Glutes', 'Abs'],
      equipment: ['barbell', 'squat_rack'],
      goals: strong,
    },
    [4, 6, 150],
  ),
  reps(
    {
      id: 'goblet-squat',
      name: 'Goblet Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Abs', 'Adductors'],
      equipment: ['dumbbell'],
      goals: hyper,
    },
    [3, 12, 90],
  ),
  reps(
    {
      id: 'kettlebell-goblet-squat',
      name: 'Kettlebell Goblet Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Abs', 'Adductors'],
      equipment: ['kettlebell'],
      goals: hyper,
    },
    [3, 12, 90],
  ),
  reps(
    {
      id: 'leg-press',
      name: 'Leg Press',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings'],
      equipment: ['leg_press_machine'],
      goals: hyper,
    },
    [4, 10, 120],
  ),
  reps(
    {
      id: 'leg-extension',
      name: 'Leg Extension',
      primary: ['Quadriceps'],
      secondary: [],
      equipment: ['leg_extension_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'bodyweight-squat',
      name: 'Bodyweight Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings'],
      equipment: [],
      goals: ['endurance', 'mobility'],
    },
    [3, 20, 60],
  ),
  reps(
    {
      id: 'walking-lunge',
      name: 'Dumbbell Walking Lunge',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings', 'Adductors'],
      equipment: ['dumbbell'],
      goals: hyper,
    },
    [3, 12, 90],
  ),
  reps(
    {
      id: 'reverse-lunge',
      name: 'Reverse Lunge',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'bulgarian-split-squat',
      name: 'Bulgarian Split Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings', 'Adductors'],
      equipment: ['dumbbell', 'bench'],
      goals: hyper,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'step-up',
      name: 'Box Step-Up',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings', 'Calves'],
      equipment: ['plyo_box'],
      goals: ['strength', 'endurance'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'jump-squat',
      name: 'Jump Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Calves', 'Hamstrings'],
      equipment: [],
      goals: ['power', 'endurance'],
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'box-jump',
      name: 'Box Jump',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Calves', 'Hamstrings'],
      equipment: ['plyo_box'],
      goals: ['power'],
    },
    [4, 5, 90],
  ),
  hold(
    {
      id: 'wall-sit',
      name: 'Wall Sit',
      primary: ['Quadriceps'],
      secondary: ['Glutes', 'Adductors'],
      equipment: [],
      goals: ['endurance', 'strength'],
    },
    [3, 45, 60],
  ),
  hold(
    {
      id: 'standing-quad-stretch',
      name: 'Standing Quad Stretch',
      primary: ['Quadriceps'],
      secondary: [],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
  // Hamstrings
  reps(
    {
      id: 'conventional-deadlift',
      name: 'Conventional Deadlift',
      primary: ['Hamstrings', 'Glutes', 'Lower Back'],
      secondary: ['Quadriceps', 'Trapezius', 'Forearms', 'Back'],
      equipment: ['barbell'],
      goals: strong,
    },
    [4, 5, 180],
  ),
  reps(
    {
      id: 'romanian-deadlift',
      name: 'Romanian Deadlift',
      primary: ['Hamstrings'],
      secondary: ['Glutes', 'Lower Back', 'Forearms'],
      equipment: ['barbell'],
      goals: strong,
    },
    [4, 8, 120],
  ),
  reps(
    {
      id: 'dumbbell-romanian-deadlift',
      name: 'Dumbbell Romanian Deadlift',
      primary: ['Hamstrings'],
      secondary: ['Glutes', 'Lower Back'],
      equipment: ['dumbbell'],
      goals: hyper,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'single-leg-romanian-deadlift',
      name: 'Single-Leg Romanian Deadlift',
      primary: ['Hamstrings', 'Glutes'],
      secondary: ['Lower Back', 'Abductors'],
      equipment: ['dumbbell'],
      goals: ['stability', 'strength'],
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'lying-leg-curl',
      name: 'Lying Leg Curl',
      primary: ['Hamstrings'],
      secondary: ['Calves'],
      equipment: ['leg_curl_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'nordic-hamstring-curl',
      name: 'Nordic Hamstring Curl',
      primary: ['Hamstrings'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['strength', 'injury_prevention'],
    },
    [3, 5, 120],
  ),
  reps(
    {
      id: 'stability-ball-leg-curl',
      name: 'Stability Ball Leg Curl',
      primary: ['Hamstrings'],
      secondary: ['Glutes', 'Abs'],
      equipment: ['stability_ball'],
      goals: ['strength', 'stability'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'kettlebell-swing',
      name: 'Kettlebell Swing',
      primary: ['Glutes', 'Hamstrings'],
      secondary: ['Lower Back', 'Shoulders', 'Abs'],
      equipment: ['kettlebell'],
      goals: ['power', 'endurance'],
    },
    [4, 15, 60],
  ),
  hold(
    {
      id: 'seated-hamstring-stretch',
      name: 'Seated Hamstring Stretch',
      primary: ['Hamstrings'],
      secondary: ['Lower Back'],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
  ...GLUTE_CALF_AND_HIP_EXERCISES,
];
