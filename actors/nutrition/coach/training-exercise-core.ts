import { exercise, type TrainingExercise } from './training-exercise.ts';

// Anti-extension and anti-rotation work rather than crunches: it trains the brace the main lifts
// need and suits a sensitive lower back (McGill's big three: curl-up, side plank, bird dog).

/** Trunk stability and loaded carries. */
export const CORE_EXERCISES: readonly TrainingExercise[] = [
  exercise({ id: 'dead-bug', name: 'Dead Bug', pattern: 'core_stability', primary: ['core'], equipment: [], kind: 'core', load: 'bodyweight', unilateral: true, cue: 'Lower back pressed to the floor; move opposite arm and leg slowly.' }),
  exercise({ id: 'bird-dog', name: 'Bird Dog', pattern: 'core_stability', primary: ['core'], secondary: ['glutes'], equipment: [], kind: 'core', load: 'bodyweight', unilateral: true, cue: 'Reach long with opposite arm and leg; hips stay level.' }),
  exercise({ id: 'forearm-plank', name: 'Forearm Plank', pattern: 'core_stability', primary: ['core'], equipment: [], kind: 'core', load: 'bodyweight', hold: true, contraindications: ['shoulder'], cue: 'Squeeze glutes and quads; ribs down; breathe.' }),
  exercise({ id: 'side-plank', name: 'Side Plank', pattern: 'core_stability', primary: ['core'], secondary: ['glutes'], equipment: [], kind: 'core', load: 'bodyweight', hold: true, contraindications: ['shoulder'], cue: 'Elbow under the shoulder; knees down to make it easier.' }),
  exercise({ id: 'band-pallof-press', name: 'Band Pallof Press', pattern: 'core_stability', primary: ['core'], equipment: ['band'], kind: 'core', load: 'band', unilateral: true, cue: 'Band anchored to the side; press out and resist the rotation.' }),
  exercise({ id: 'cable-pallof-press', name: 'Cable Pallof Press', pattern: 'core_stability', primary: ['core'], equipment: ['cable'], kind: 'core', unilateral: true, cue: 'Stand side-on to the stack; press out and hold two seconds.' }),
  exercise({ id: 'hanging-knee-raise', name: 'Hanging Knee Raise', pattern: 'core_stability', primary: ['core'], equipment: ['pullup_bar'], kind: 'core', load: 'bodyweight', complexity: 2, contraindications: ['shoulder'], cue: 'Curl the pelvis up; no swinging.' }),
  exercise({ id: 'farmer-carry', name: "Farmer's Carry", pattern: 'carry', primary: ['core'], secondary: ['back', 'shoulders'], equipment: ['dumbbells'], kind: 'core', hold: true, cue: 'Heavy dumbbells at the sides; walk tall with short steps.' }),
];
