import { hold, reps, type LibraryExercise } from './exercise-library-entry.ts';
import { CARDIO_AND_MOBILITY_EXERCISES } from './exercise-library-cardio.ts';

/** Abs, lower back, cardio, intervals and mobility work. */
export const CORE_AND_CARDIO_EXERCISES: readonly LibraryExercise[] = [
  // Abs
  reps(
    {
      id: 'crunch',
      name: 'Crunch',
      primary: ['Abs'],
      secondary: [],
      equipment: [],
      goals: ['endurance', 'hypertrophy'],
    },
    [3, 20, 45],
  ),
  reps(
    {
      id: 'bicycle-crunch',
      name: 'Bicycle Crunch',
      primary: ['Abs'],
      secondary: [],
      equipment: [],
      goals: ['endurance'],
    },
    [3, 20, 45],
  ),
  reps(
    {
      id: 'hanging-leg-raise',
      name: 'Hanging Leg Raise',
      primary: ['Abs'],
      secondary: ['Forearms'],
      equipment: ['pull_up_bar'],
      goals: ['strength', 'hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'cable-crunch',
      name: 'Cable Crunch',
      primary: ['Abs'],
      secondary: [],
      equipment: ['cable_machine'],
      goals: ['hypertrophy'],
    },
    [3, 15, 60],
  ),
  reps(
    {
      id: 'ab-wheel-rollout',
      name: 'Ab Wheel Rollout',
      primary: ['Abs'],
      secondary: ['Lower Back', 'Shoulders'],
      equipment: ['ab_wheel'],
      goals: ['strength', 'stability'],
    },
    [3, 10, 60],
  ),
  reps(
    {
      id: 'russian-twist',
      name: 'Russian Twist',
      primary: ['Abs'],
      secondary: [],
      equipment: [],
      goals: ['endurance'],
    },
    [3, 20, 45],
  ),
  reps(
    {
      id: 'dead-bug',
      name: 'Dead Bug',
      primary: ['Abs'],
      secondary: ['Lower Back'],
      equipment: [],
      goals: ['stability'],
    },
    [3, 12, 45],
  ),
  reps(
    {
      id: 'pallof-press',
      name: 'Band Pallof Press',
      primary: ['Abs'],
      secondary: ['Shoulders'],
      equipment: ['resistance_band'],
      goals: ['stability'],
    },
    [3, 12, 45],
  ),
  reps(
    {
      id: 'medicine-ball-slam',
      name: 'Medicine Ball Slam',
      primary: ['Abs', 'Shoulders'],
      secondary: ['Back', 'Triceps'],
      equipment: ['medicine_ball'],
      goals: ['power', 'cardio'],
    },
    [4, 10, 60],
  ),
  hold(
    {
      id: 'plank',
      name: 'Plank',
      primary: ['Abs'],
      secondary: ['Shoulders', 'Lower Back'],
      equipment: [],
      goals: ['stability', 'endurance'],
    },
    [3, 45, 45],
  ),
  hold(
    {
      id: 'side-plank',
      name: 'Side Plank',
      primary: ['Abs'],
      secondary: ['Abductors', 'Shoulders'],
      equipment: [],
      goals: ['stability', 'endurance'],
    },
    [3, 30, 30],
  ),
  hold(
    {
      id: 'hollow-body-hold',
      name: 'Hollow Body Hold',
      primary: ['Abs'],
      secondary: ['Quadriceps'],
      equipment: [],
      goals: ['stability', 'strength'],
    },
    [3, 30, 45],
  ),
  // Lower back
  reps(
    {
      id: 'back-extension',
      name: 'Back Extension',
      primary: ['Lower Back'],
      secondary: ['Glutes', 'Hamstrings'],
      equipment: ['hyperextension_bench'],
      goals: ['strength', 'hypertrophy'],
    },
    [3, 12, 60],
  ),
  reps(
    {
      id: 'good-morning',
      name: 'Barbell Good Morning',
      primary: ['Lower Back', 'Hamstrings'],
      secondary: ['Glutes'],
      equipment: ['barbell'],
      goals: ['strength'],
    },
    [3, 10, 90],
  ),
  reps(
    {
      id: 'bird-dog',
      name: 'Bird Dog',
      primary: ['Lower Back'],
      secondary: ['Abs', 'Glutes'],
      equipment: [],
      goals: ['stability', 'injury_prevention'],
    },
    [3, 10, 30],
  ),
  reps(
    {
      id: 'cat-cow',
      name: 'Cat-Cow',
      primary: ['Lower Back'],
      secondary: ['Abs'],
      equipment: [],
      goals: ['mobility'],
      role: 'warmup',
    },
    [2, 10, 15],
  ),
  hold(
    {
      id: 'superman-hold',
      name: 'Superman Hold',
      primary: ['Lower Back'],
      secondary: ['Glutes', 'Shoulders'],
      equipment: [],
      goals: ['endurance', 'posture'],
    },
    [3, 30, 30],
  ),
  hold(
    {
      id: 'childs-pose',
      name: "Child's Pose",
      primary: ['Lower Back'],
      secondary: ['Back', 'Shoulders'],
      equipment: [],
      goals: ['mobility'],
      role: 'cooldown',
    },
    [1, 60, 10],
  ),
  ...CARDIO_AND_MOBILITY_EXERCISES,
];
