import {
  reps,
  HYPERTROPHY_GOALS as hyper,
  STRENGTH_GOALS as strong,
  type LibraryExercise,
} from './exercise-library-entry.ts';
import { SHOULDER_AND_ARM_EXERCISES } from './exercise-library-shoulders-arms.ts';
import { TRAPS_FOREARM_AND_NECK_EXERCISES } from './exercise-library-traps-forearms-neck.ts';

/** Chest, back, shoulders, arms, trapezius, forearms and neck. */
export const UPPER_BODY_EXERCISES: readonly LibraryExercise[] = [
  // Chest
  reps(
    {
      id: 'barbell-bench-press',
      name: 'Barbell Bench Press',
      primary: ['Chest'],
      secondary: ['Triceps', 'Shoulders'],
      equipment: ['barbell', 'bench'],
      goals: strong,
    },
    [4, 6, 150],
  ),
  reps(
    {
      id: 'incline-barbell-bench-press',
      name: 'Incline Barbell Bench Press',
      primary: ['Chest'],
      secondary: ['Shoulders', 'Triceps'],
      equipment: ['barbell', 'bench'],
      goals: strong,
    },
    [4, 8, 120],
  ),
  reps(
    {
      id: 'dumbbell-bench-press',
      name: 'Dumbbell Bench Press',
      primary: ['Chest'],
      secondary: ['Triceps', 'Shoulders'],
      equipment: ['dumbbell', 'bench'],
      goals: hyper,
    },
    [4, 10, 90],
  ),
  reps(
    {
      id: 'incline-dumbbell-press',
      name: 'Incline Dumbbell Press',
      primary: ['Chest'],
      secondary: ['Shoulders', 'Triceps'],
      equipment: ['dumbbell', 'bench'],
      goals: hyper,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'dumbbell-fly',
      name: 'Dumbbell Fly',
      primary: ['Chest'],
      secondary: ['Shoulders'],
      equipment: ['dumbbell', 'bench'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'cable-crossover',
      name: 'Cable Crossover',
      primary: ['Chest'],
      secondary: ['Shoulders'],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'pec-deck-fly',
      name: 'Pec Deck Fly',
      primary: ['Chest'],
      secondary: ['Shoulders'],
      equipment: ['pec_deck_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'push-up',
      name: 'Push-Up',
      primary: ['Chest'],
      secondary: ['Triceps', 'Shoulders', 'Abs'],
      equipment: [],
      goals: ['strength', 'endurance'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'decline-push-up',
      name: 'Decline Push-Up',
      primary: ['Chest'],
      secondary: ['Shoulders', 'Triceps'],
      equipment: ['bench'],
      goals: ['strength', 'endurance'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'chest-dip',
      name: 'Chest Dip',
      primary: ['Chest'],
      secondary: ['Triceps', 'Shoulders'],
      equipment: ['dip_station'],
      goals: strong,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'band-chest-press',
      name: 'Resistance Band Chest Press',
      primary: ['Chest'],
      secondary: ['Triceps', 'Shoulders'],
      equipment: ['resistance_band'],
      goals: ['endurance', 'hypertrophy'],
    },
    [3, 15, 60],
  ),
  // Back
  reps(
    {
      id: 'pull-up',
      name: 'Pull-Up',
      primary: ['Back'],
      secondary: ['Biceps', 'Forearms'],
      equipment: ['pull_up_bar'],
      goals: strong,
    },
    [4, 8, 120],
  ),
  reps(
    {
      id: 'chin-up',
      name: 'Chin-Up',
      primary: ['Back'],
      secondary: ['Biceps'],
      equipment: ['pull_up_bar'],
      goals: strong,
    },
    [3, 8, 120],
  ),
  reps(
    {
      id: 'lat-pulldown',
      name: 'Lat Pulldown',
      primary: ['Back'],
      secondary: ['Biceps'],
      equipment: ['lat_pulldown_machine'],
      goals: hyper,
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'barbell-row',
      name: 'Barbell Bent-Over Row',
      primary: ['Back'],
      secondary: ['Biceps', 'Lower Back', 'Trapezius'],
      equipment: ['barbell'],
      goals: strong,
    },
    [4, 8, 120],
  ),
  reps(
    {
      id: 'one-arm-dumbbell-row',
      name: 'One-Arm Dumbbell Row',
      primary: ['Back'],
      secondary: ['Biceps', 'Trapezius'],
      equipment: ['dumbbell', 'bench'],
      goals: hyper,
    },
    [3, 10, 75],
  ),
  reps(
    {
      id: 'seated-cable-row',
      name: 'Seated Cable Row',
      primary: ['Back'],
      secondary: ['Biceps', 'Trapezius'],
      equipment: ['cable_machine'],
      goals: hyper,
    },
    [3, 12, 75],
  ),
  reps(
    {
      id: 'straight-arm-pulldown',
      name: 'Straight-Arm Pulldown',
      primary: ['Back'],
      secondary: ['Triceps', 'Abs'],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'inverted-row',
      name: 'Inverted Row',
      primary: ['Back'],
      secondary: ['Biceps', 'Trapezius'],
      equipment: ['suspension_trainer'],
      goals: ['strength', 'endurance'],
    },
    [3, 12, 75],
  ),
  reps(
    {
      id: 'band-row',
      name: 'Resistance Band Row',
      primary: ['Back'],
      secondary: ['Biceps'],
      equipment: ['resistance_band'],
      goals: ['endurance', 'hypertrophy'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'doorframe-row',
      name: 'Doorframe Row',
      primary: ['Back'],
      secondary: ['Biceps', 'Forearms'],
      equipment: [],
      goals: ['endurance', 'strength'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'prone-ytw-raise',
      name: 'Prone Y-T-W Raise',
      primary: ['Trapezius', 'Back'],
      secondary: ['Shoulders'],
      equipment: [],
      goals: ['posture', 'endurance'],
    },
    [3, 10, 45],
  ),
  ...SHOULDER_AND_ARM_EXERCISES,
  ...TRAPS_FOREARM_AND_NECK_EXERCISES,
];
