import {
  reps,
  hold,
  HYPERTROPHY_GOALS as hyper,
  STRENGTH_GOALS as strong,
  type LibraryExercise,
} from './exercise-library-entry.ts';

/** Shoulders, biceps and triceps. */
export const SHOULDER_AND_ARM_EXERCISES: readonly LibraryExercise[] = [
  // Shoulders
  reps(
    {
      id: 'overhead-press',
      name: 'Barbell Overhead Press',
      primary: ['Shoulders'],
      secondary: ['Triceps', 'Trapezius', 'Abs'],
      equipment: ['barbell'],
      goals: strong,
    },
    [4, 6, 150],
  ),
  reps(
    {
      id: 'dumbbell-shoulder-press',
      name: 'Dumbbell Shoulder Press',
      primary: ['Shoulders'],
      secondary: ['Triceps'],
      equipment: ['dumbbell'],
      goals: hyper,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'arnold-press',
      name: 'Arnold Press',
      primary: ['Shoulders'],
      secondary: ['Triceps'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'kettlebell-press',
      name: 'Kettlebell Overhead Press',
      primary: ['Shoulders'],
      secondary: ['Triceps', 'Abs'],
      equipment: ['kettlebell'],
      goals: ['strength', 'stability'],
    },
    [3, 8, 90],
  ),
  reps(
    {
      id: 'lateral-raise',
      name: 'Dumbbell Lateral Raise',
      primary: ['Shoulders'],
      secondary: ['Trapezius'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'rear-delt-fly',
      name: 'Rear Delt Fly',
      primary: ['Shoulders'],
      secondary: ['Back', 'Trapezius'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy', 'posture'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'face-pull',
      name: 'Face Pull',
      primary: ['Shoulders'],
      secondary: ['Trapezius', 'Back'],
      equipment: ['cable_machine'],
      goals: ['posture', 'hypertrophy'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'pike-push-up',
      name: 'Pike Push-Up',
      primary: ['Shoulders'],
      secondary: ['Triceps', 'Chest'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'band-pull-apart',
      name: 'Band Pull-Apart',
      primary: ['Shoulders'],
      secondary: ['Trapezius', 'Back'],
      equipment: ['resistance_band'],
      goals: ['posture', 'mobility'],
      role: 'warmup',
    },
    [2, 15, 30],
  ),
  reps(
    {
      id: 'arm-circles',
      name: 'Arm Circles',
      primary: ['Shoulders'],
      secondary: [],
      equipment: [],
      goals: ['mobility'],
      role: 'warmup',
    },
    [2, 15, 15],
  ),
  // Biceps
  reps(
    {
      id: 'barbell-curl',
      name: 'Barbell Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['barbell'],
      goals: hyper,
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'dumbbell-curl',
      name: 'Dumbbell Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'hammer-curl',
      name: 'Hammer Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy', 'strength'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'cable-curl',
      name: 'Cable Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'ez-bar-preacher-curl',
      name: 'EZ-Bar Preacher Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['ez_bar', 'bench'],
      goals: ['hypertrophy'],
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'band-curl',
      name: 'Resistance Band Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: ['resistance_band'],
      goals: ['hypertrophy', 'endurance'],
    },
    [3, 15, 45],
  ),
  hold(
    {
      id: 'isometric-towel-curl',
      name: 'Isometric Towel Curl',
      primary: ['Biceps'],
      secondary: ['Forearms'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 20, 45],
  ),
  // Triceps
  reps(
    {
      id: 'close-grip-bench-press',
      name: 'Close-Grip Bench Press',
      primary: ['Triceps'],
      secondary: ['Chest', 'Shoulders'],
      equipment: ['barbell', 'bench'],
      goals: strong,
    },
    [4, 8, 120],
  ),
  reps(
    {
      id: 'triceps-pushdown',
      name: 'Cable Triceps Pushdown',
      primary: ['Triceps'],
      secondary: [],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'overhead-triceps-extension',
      name: 'Overhead Dumbbell Triceps Extension',
      primary: ['Triceps'],
      secondary: ['Shoulders'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'skull-crusher',
      name: 'EZ-Bar Skull Crusher',
      primary: ['Triceps'],
      secondary: [],
      equipment: ['ez_bar', 'bench'],
      goals: hyper,
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'bench-dip',
      name: 'Bench Dip',
      primary: ['Triceps'],
      secondary: ['Chest', 'Shoulders'],
      equipment: ['bench'],
      goals: ['endurance', 'strength'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'diamond-push-up',
      name: 'Diamond Push-Up',
      primary: ['Triceps'],
      secondary: ['Chest', 'Shoulders'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 10, 60],
  ),
  reps(
    {
      id: 'band-triceps-extension',
      name: 'Band Triceps Extension',
      primary: ['Triceps'],
      secondary: [],
      equipment: ['resistance_band'],
      goals: ['hypertrophy', 'endurance'],
    },
    [3, 15, 45],
  ),
];
