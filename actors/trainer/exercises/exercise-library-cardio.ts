import { reps, duration, intervals, type LibraryExercise } from './exercise-library-entry.ts';

const cardio = ['endurance', 'cardio'];

/** Steady cardio, intervals and mobility warm-ups. */
export const CARDIO_AND_MOBILITY_EXERCISES: readonly LibraryExercise[] = [
  // Steady cardio
  duration(
    {
      id: 'treadmill-run',
      name: 'Treadmill Run',
      primary: ['Quadriceps', 'Hamstrings', 'Calves'],
      secondary: ['Glutes'],
      equipment: ['treadmill'],
      goals: cardio,
    },
    20,
  ),
  duration(
    {
      id: 'outdoor-run',
      name: 'Outdoor Run',
      primary: ['Quadriceps', 'Hamstrings', 'Calves'],
      secondary: ['Glutes'],
      equipment: [],
      goals: cardio,
    },
    30,
  ),
  duration(
    {
      id: 'brisk-walk',
      name: 'Brisk Walk',
      primary: ['Calves', 'Quadriceps'],
      secondary: ['Glutes', 'Hamstrings'],
      equipment: [],
      goals: ['endurance', 'recovery'],
    },
    30,
  ),
  duration(
    {
      id: 'stationary-bike',
      name: 'Stationary Bike',
      primary: ['Quadriceps'],
      secondary: ['Hamstrings', 'Glutes', 'Calves'],
      equipment: ['stationary_bike'],
      goals: cardio,
    },
    25,
  ),
  duration(
    {
      id: 'rowing-machine',
      name: 'Rowing Machine',
      primary: ['Back', 'Quadriceps'],
      secondary: ['Hamstrings', 'Biceps', 'Glutes'],
      equipment: ['rowing_machine'],
      goals: cardio,
    },
    20,
  ),
  duration(
    {
      id: 'elliptical',
      name: 'Elliptical Trainer',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings', 'Calves', 'Shoulders'],
      equipment: ['elliptical'],
      goals: cardio,
    },
    25,
  ),
  duration(
    {
      id: 'light-cardio-warmup',
      name: 'Light Cardio Warm-Up',
      primary: ['Quadriceps', 'Calves'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['mobility', 'cardio'],
      role: 'warmup',
    },
    5,
  ),
  duration(
    {
      id: 'yoga-flow',
      name: 'Yoga Flow',
      primary: ['Hamstrings', 'Shoulders', 'Lower Back'],
      secondary: ['Glutes', 'Abs'],
      equipment: ['mat'],
      goals: ['mobility', 'recovery'],
      role: 'cooldown',
    },
    15,
  ),
  // Intervals
  intervals(
    {
      id: 'burpees',
      name: 'Burpees',
      primary: ['Quadriceps', 'Chest'],
      secondary: ['Shoulders', 'Abs', 'Glutes'],
      equipment: [],
      goals: ['cardio', 'power'],
    },
    [8, 30, 30],
  ),
  intervals(
    {
      id: 'mountain-climbers',
      name: 'Mountain Climbers',
      primary: ['Abs'],
      secondary: ['Shoulders', 'Quadriceps'],
      equipment: [],
      goals: cardio,
    },
    [8, 30, 15],
  ),
  intervals(
    {
      id: 'high-knees',
      name: 'High Knees',
      primary: ['Quadriceps'],
      secondary: ['Calves', 'Abs'],
      equipment: [],
      goals: cardio,
      role: 'warmup',
    },
    [4, 30, 15],
  ),
  intervals(
    {
      id: 'jumping-jacks',
      name: 'Jumping Jacks',
      primary: ['Calves', 'Shoulders'],
      secondary: ['Abductors', 'Adductors'],
      equipment: [],
      goals: cardio,
      role: 'warmup',
    },
    [4, 30, 15],
  ),
  intervals(
    {
      id: 'jump-rope',
      name: 'Jump Rope',
      primary: ['Calves'],
      secondary: ['Quadriceps', 'Shoulders'],
      equipment: ['jump_rope'],
      goals: cardio,
    },
    [10, 45, 15],
  ),
  intervals(
    {
      id: 'tabata-squat',
      name: 'Tabata Bodyweight Squat',
      primary: ['Quadriceps', 'Glutes'],
      secondary: ['Hamstrings'],
      equipment: [],
      goals: ['cardio', 'endurance'],
    },
    [8, 20, 10],
  ),
  intervals(
    {
      id: 'bike-sprints',
      name: 'Bike Sprints',
      primary: ['Quadriceps'],
      secondary: ['Hamstrings', 'Glutes', 'Calves'],
      equipment: ['stationary_bike'],
      goals: ['cardio', 'power'],
    },
    [8, 20, 40],
  ),
  intervals(
    {
      id: 'rowing-intervals',
      name: 'Rowing Intervals',
      primary: ['Back', 'Quadriceps'],
      secondary: ['Hamstrings', 'Biceps'],
      equipment: ['rowing_machine'],
      goals: ['cardio', 'power'],
    },
    [6, 60, 60],
  ),
  intervals(
    {
      id: 'treadmill-sprints',
      name: 'Treadmill Sprints',
      primary: ['Quadriceps', 'Hamstrings'],
      secondary: ['Calves', 'Glutes'],
      equipment: ['treadmill'],
      goals: ['cardio', 'power'],
    },
    [8, 30, 60],
  ),
  intervals(
    {
      id: 'kettlebell-swing-intervals',
      name: 'Kettlebell Swing Intervals',
      primary: ['Glutes', 'Hamstrings'],
      secondary: ['Shoulders', 'Abs'],
      equipment: ['kettlebell'],
      goals: ['cardio', 'power'],
    },
    [10, 30, 30],
  ),
  // Mobility warm-ups
  reps(
    {
      id: 'worlds-greatest-stretch',
      name: "World's Greatest Stretch",
      primary: ['Glutes', 'Hamstrings'],
      secondary: ['Adductors', 'Back'],
      equipment: [],
      goals: ['mobility'],
      role: 'warmup',
    },
    [2, 6, 15],
  ),
  reps(
    {
      id: 'leg-swings',
      name: 'Leg Swings',
      primary: ['Hamstrings', 'Adductors'],
      secondary: ['Glutes'],
      equipment: [],
      goals: ['mobility'],
      role: 'warmup',
    },
    [2, 12, 15],
  ),
];
