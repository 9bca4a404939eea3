import { duration, hold, intervals, reps, type LibraryExercise } from './exercise-library-entry.ts';

const cardio = ['endurance', 'cardio'];

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
