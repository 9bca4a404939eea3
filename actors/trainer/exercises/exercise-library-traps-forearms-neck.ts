import { reps, hold, HYPERTROPHY_GOALS as hyper, type LibraryExercise } from './exercise-library-entry.ts';

/** Trapezius, forearms and neck. */
export const TRAPS_FOREARM_AND_NECK_EXERCISES: readonly LibraryExercise[] = [
  // Trapezius
  reps(
    {
      id: 'barbell-shrug',
      name: 'Barbell Shrug',
      primary: ['Trapezius'],
      secondary: ['Forearms'],
      equipment: ['barbell'],
      goals: hyper,
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'dumbbell-shrug',
      name: 'Dumbbell Shrug',
      primary: ['Trapezius'],
      secondary: ['Forearms'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'upright-row',
      name: 'Dumbbell Upright Row',
      primary: ['Trapezius', 'Shoulders'],
      secondary: ['Biceps'],
      equipment: ['dumbbell'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  hold(
    {
      id: 'farmers-carry',
      name: "Farmer's Carry",
      primary: ['Forearms', 'Trapezius'],
      secondary: ['Abs', 'Glutes'],
      equipment: ['dumbbell'],
      goals: ['strength', 'stability'],
    },
    [3, 40, 75],
  ),
  // Forearms
  reps(
    {
      id: 'wrist-curl',
      name: 'Dumbbell Wrist Curl',
      primary: ['Forearms'],
      secondary: [],
      equipment: ['dumbbell'],
      goals: ['strength', 'hypertrophy'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'reverse-wrist-curl',
      name: 'Reverse Wrist Curl',
      primary: ['Forearms'],
      secondary: [],
      equipment: ['dumbbell'],
      goals: ['strength', 'hypertrophy'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'reverse-barbell-curl',
      name: 'Reverse Barbell Curl',
      primary: ['Forearms'],
      secondary: ['Biceps'],
      equipment: ['barbell'],
      goals: ['strength', 'hypertrophy'],
    },
    [3, 12, 60],
  ),
  hold(
    {
      id: 'dead-hang',
      name: 'Dead Hang',
      primary: ['Forearms'],
      secondary: ['Back', 'Shoulders'],
      equipment: ['pull_up_bar'],
      goals: ['strength', 'mobility'],
    },
    [3, 30, 60],
  ),
  hold(
    {
      id: 'plate-pinch',
      name: 'Plate Pinch Hold',
      primary: ['Forearms'],
      secondary: [],
      equipment: ['weight_plate'],
      goals: ['strength'],
    },
    [3, 30, 60],
  ),
  hold(
    {
      id: 'wrist-flexor-stretch',
      name: 'Wrist Flexor Stretch',
      primary: ['Forearms'],
      secondary: [],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
  // Neck
  hold(
    {
      id: 'isometric-neck-flexion',
      name: 'Isometric Neck Flexion Hold',
      primary: ['Neck'],
      secondary: [],
      equipment: [],
      goals: ['strength', 'posture'],
    },
    [3, 20, 30],
  ),
  hold(
    {
      id: 'isometric-neck-extension',
      name: 'Isometric Neck Extension Hold',
      primary: ['Neck'],
      secondary: ['Trapezius'],
      equipment: [],
      goals: ['strength', 'posture'],
    },
    [3, 20, 30],
  ),
  reps(
    {
      id: 'plate-neck-flexion',
      name: 'Lying Plate Neck Flexion',
      primary: ['Neck'],
      secondary: [],
      equipment: ['weight_plate', 'bench'],
      goals: ['strength'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'band-neck-extension',
      name: 'Band Neck Extension',
      primary: ['Neck'],
      secondary: ['Trapezius'],
      equipment: ['resistance_band'],
      goals: ['strength', 'posture'],
    },
    [3, 15, 45],
  ),
  reps(
    {
      id: 'chin-tuck',
      name: 'Chin Tuck',
      primary: ['Neck'],
      secondary: [],
      equipment: [],
      goals: ['posture', 'mobility'],
      role: 'warmup',
    },
    [2, 12, 20],
  ),
  hold(
    {
      id: 'neck-side-stretch',
      name: 'Neck Side Stretch',
      primary: ['Neck'],
      secondary: ['Trapezius'],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
  hold(
    {
      id: 'doorway-chest-stretch',
      name: 'Doorway Chest Stretch',
      primary: ['Chest'],
      secondary: ['Shoulders'],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [2, 30, 10],
  ),
];
