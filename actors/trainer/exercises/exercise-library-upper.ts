import { hold, reps, type LibraryExercise } from './exercise-library-entry.ts';

const hyper = ['hypertrophy', 'strength'];
const strong = ['strength', 'hypertrophy'];

/** Chest, back, shoulders, arms, trapezius, forearms and neck. */
export const UPPER_BODY_EXERCISES: readonly LibraryExercise[] = [
  // Chest
  reps({ id: 'barbell-bench-press', name: 'Barbell Bench Press', primary: ['Chest'], secondary: ['Triceps', 'Shoulders'], equipment: ['barbell', 'bench'], goals: strong }, [4, 6, 150]),
  reps({ id: 'incline-barbell-bench-press', name: 'Incline Barbell Bench Press', primary: ['Chest'], secondary: ['Shoulders', 'Triceps'], equipment: ['barbell', 'bench'], goals: strong }, [4, 8, 120]),
  reps({ id: 'dumbbell-bench-press', name: 'Dumbbell Bench Press', primary: ['Chest'], secondary: ['Triceps', 'Shoulders'], equipment: ['dumbbell', 'bench'], goals: hyper }, [4, 10, 90]),
  reps({ id: 'incline-dumbbell-press', name: 'Incline Dumbbell Press', primary: ['Chest'], secondary: ['Shoulders', 'Triceps'], equipment: ['dumbbell', 'bench'], goals: hyper }, [3, 10, 90]),
  reps({ id: 'dumbbell-fly', name: 'Dumbbell Fly', primary: ['Chest'], secondary: ['Shoulders'], equipment: ['dumbbell', 'bench'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'cable-crossover', name: 'Cable Crossover', primary: ['Chest'], secondary: ['Shoulders'], equipment: ['cable_machine'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'pec-deck-fly', name: 'Pec Deck Fly', primary: ['Chest'], secondary: ['Shoulders'], equipment: ['pec_deck_machine'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'push-up', name: 'Push-Up', primary: ['Chest'], secondary: ['Triceps', 'Shoulders', 'Abs'], equipment: [], goals: ['strength', 'endurance'] }, [3, 15, 60]),
  reps({ id: 'decline-push-up', name: 'Decline Push-Up', primary: ['Chest'], secondary: ['Shoulders', 'Triceps'], equipment: ['bench'], goals: ['strength', 'endurance'] }, [3, 12, 60]),
  reps({ id: 'chest-dip', name: 'Chest Dip', primary: ['Chest'], secondary: ['Triceps', 'Shoulders'], equipment: ['dip_station'], goals: strong }, [3, 10, 90]),
  reps({ id: 'band-chest-press', name: 'Resistance Band Chest Press', primary: ['Chest'], secondary: ['Triceps', 'Shoulders'], equipment: ['resistance_band'], goals: ['endurance', 'hypertrophy'] }, [3, 15, 60]),
  // Back
  reps({ id: 'pull-up', name: 'Pull-Up', primary: ['Back'], secondary: ['Biceps', 'Forearms'], equipment: ['pull_up_bar'], goals: strong }, [4, 8, 120]),
  reps({ id: 'chin-up', name: 'Chin-Up', primary: ['Back'], secondary: ['Biceps'], equipment: ['pull_up_bar'], goals: strong }, [3, 8, 120]),
  reps({ id: 'lat-pulldown', name: 'Lat Pulldown', primary: ['Back'], secondary: ['Biceps'], equipment: ['lat_pulldown_machine'], goals: hyper }, [3, 10, 90]),
  reps({ id: 'barbell-row', name: 'Barbell Bent-Over Row', primary: ['Back'], secondary: ['Biceps', 'Lower Back', 'Trapezius'], equipment: ['barbell'], goals: strong }, [4, 8, 120]),
  reps({ id: 'one-arm-dumbbell-row', name: 'One-Arm Dumbbell Row', primary: ['Back'], secondary: ['Biceps', 'Trapezius'], equipment: ['dumbbell', 'bench'], goals: hyper }, [3, 10, 75]),
  reps({ id: 'seated-cable-row', name: 'Seated Cable Row', primary: ['Back'], secondary: ['Biceps', 'Trapezius'], equipment: ['cable_machine'], goals: hyper }, [3, 12, 75]),
  reps({ id: 'straight-arm-pulldown', name: 'Straight-Arm Pulldown', primary: ['Back'], secondary: ['Triceps', 'Abs'], equipment: ['cable_machine'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'inverted-row', name: 'Inverted Row', primary: ['Back'], secondary: ['Biceps', 'Trapezius'], equipment: ['suspension_trainer'], goals: ['strength', 'endurance'] }, [3, 12, 75]),
  reps({ id: 'band-row', name: 'Resistance Band Row', primary: ['Back'], secondary: ['Biceps'], equipment: ['resistance_band'], goals: ['endurance', 'hypertrophy'] }, [3, 15, 60]),
  reps({ id: 'doorframe-row', name: 'Doorframe Row', primary: ['Back'], secondary: ['Biceps', 'Forearms'], equipment: [], goals: ['endurance', 'strength'] }, [3, 12, 60]),
  reps({ id: 'prone-ytw-raise', name: 'Prone Y-T-W Raise', primary: ['Trapezius', 'Back'], secondary: ['Shoulders'], equipment: [], goals: ['posture', 'endurance'] }, [3, 10, 45]),
  // Shoulders
  reps({ id: 'overhead-press', name: 'Barbell Overhead Press', primary: ['Shoulders'], secondary: ['Triceps', 'Trapezius', 'Abs'], equipment: ['barbell'], goals: strong }, [4, 6, 150]),
  reps({ id: 'dumbbell-shoulder-press', name: 'Dumbbell Shoulder Press', primary: ['Shoulders'], secondary: ['Triceps'], equipment: ['dumbbell'], goals: hyper }, [3, 10, 90]),
  reps({ id: 'arnold-press', name: 'Arnold Press', primary: ['Shoulders'], secondary: ['Triceps'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 10, 75]),
  reps({ id: 'kettlebell-press', name: 'Kettlebell Overhead Press', primary: ['Shoulders'], secondary: ['Triceps', 'Abs'], equipment: ['kettlebell'], goals: ['strength', 'stability'] }, [3, 8, 90]),
  reps({ id: 'lateral-raise', name: 'Dumbbell Lateral Raise', primary: ['Shoulders'], secondary: ['Trapezius'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 15, 60]),
  reps({ id: 'rear-delt-fly', name: 'Rear Delt Fly', primary: ['Shoulders'], secondary: ['Back', 'Trapezius'], equipment: ['dumbbell'], goals: ['hypertrophy', 'posture'] }, [3, 15, 60]),
  reps({ id: 'face-pull', name: 'Face Pull', primary: ['Shoulders'], secondary: ['Trapezius', 'Back'], equipment: ['cable_machine'], goals: ['posture', 'hypertrophy'] }, [3, 15, 60]),
  reps({ id: 'pike-push-up', name: 'Pike Push-Up', primary: ['Shoulders'], secondary: ['Triceps', 'Chest'], equipment: [], goals: ['strength', 'endurance'] }, [3, 10, 75]),
  reps({ id: 'band-pull-apart', name: 'Band Pull-Apart', primary: ['Shoulders'], secondary: ['Trapezius', 'Back'], equipment: ['resistance_band'], goals: ['posture', 'mobility'], role: 'warmup' }, [2, 15, 30]),
  reps({ id: 'arm-circles', name: 'Arm Circles', primary: ['Shoulders'], secondary: [], equipment: [], goals: ['mobility'], role: 'warmup' }, [2, 15, 15]),
  // Biceps
  reps({ id: 'barbell-curl', name: 'Barbell Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['barbell'], goals: hyper }, [3, 10, 75]),
  reps({ id: 'dumbbell-curl', name: 'Dumbbell Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'hammer-curl', name: 'Hammer Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['dumbbell'], goals: ['hypertrophy', 'strength'] }, [3, 12, 60]),
  reps({ id: 'cable-curl', name: 'Cable Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['cable_machine'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'ez-bar-preacher-curl', name: 'EZ-Bar Preacher Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['ez_bar', 'bench'], goals: ['hypertrophy'] }, [3, 10, 75]),
  reps({ id: 'band-curl', name: 'Resistance Band Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: ['resistance_band'], goals: ['hypertrophy', 'endurance'] }, [3, 15, 45]),
  hold({ id: 'isometric-towel-curl', name: 'Isometric Towel Curl', primary: ['Biceps'], secondary: ['Forearms'], equipment: [], goals: ['strength', 'endurance'] }, [3, 20, 45]),
  // Triceps
  reps({ id: 'close-grip-bench-press', name: 'Close-Grip Bench Press', primary: ['Triceps'], secondary: ['Chest', 'Shoulders'], equipment: ['barbell', 'bench'], goals: strong }, [4, 8, 120]),
  reps({ id: 'triceps-pushdown', name: 'Cable Triceps Pushdown', primary: ['Triceps'], secondary: [], equipment: ['cable_machine'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'overhead-triceps-extension', name: 'Overhead Dumbbell Triceps Extension', primary: ['Triceps'], secondary: ['Shoulders'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 12, 60]),
  reps({ id: 'skull-crusher', name: 'EZ-Bar Skull Crusher', primary: ['Triceps'], secondary: [], equipment: ['ez_bar', 'bench'], goals: hyper }, [3, 10, 75]),
  reps({ id: 'bench-dip', name: 'Bench Dip', primary: ['Triceps'], secondary: ['Chest', 'Shoulders'], equipment: ['bench'], goals: ['endurance', 'strength'] }, [3, 12, 60]),
  reps({ id: 'diamond-push-up', name: 'Diamond Push-Up', primary: ['Triceps'], secondary: ['Chest', 'Shoulders'], equipment: [], goals: ['strength', 'endurance'] }, [3, 10, 60]),
  reps({ id: 'band-triceps-extension', name: 'Band Triceps Extension', primary: ['Triceps'], secondary: [], equipment: ['resistance_band'], goals: ['hypertrophy', 'endurance'] }, [3, 15, 45]),
  // Trapezius
  reps({ id: 'barbell-shrug', name: 'Barbell Shrug', primary: ['Trapezius'], secondary: ['Forearms'], equipment: ['barbell'], goals: hyper }, [3, 12, 60]),
  reps({ id: 'dumbbell-shrug', name: 'Dumbbell Shrug', primary: ['Trapezius'], secondary: ['Forearms'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 15, 60]),
  reps({ id: 'upright-row', name: 'Dumbbell Upright Row', primary: ['Trapezius', 'Shoulders'], secondary: ['Biceps'], equipment: ['dumbbell'], goals: ['hypertrophy'] }, [3, 12, 60]),
  hold({ id: 'farmers-carry', name: "Farmer's Carry", primary: ['Forearms', 'Trapezius'], secondary: ['Abs', 'Glutes'], equipment: ['dumbbell'], goals: ['strength', 'stability'] }, [3, 40, 75]),
  // Forearms
  reps({ id: 'wrist-curl', name: 'Dumbbell Wrist Curl', primary: ['Forearms'], secondary: [], equipment: ['dumbbell'], goals: ['strength', 'hypertrophy'] }, [3, 15, 45]),
  reps({ id: 'reverse-wrist-curl', name: 'Reverse Wrist Curl', primary: ['Forearms'], secondary: [], equipment: ['dumbbell'], goals: ['strength', 'hypertrophy'] }, [3, 15, 45]),
  reps({ id: 'reverse-barbell-curl', name: 'Reverse Barbell Curl', primary: ['Forearms'], secondary: ['Biceps'], equipment: ['barbell'], goals: ['strength', 'hypertrophy'] }, [3, 12, 60]),
  hold({ id: 'dead-hang', name: 'Dead Hang', primary: ['Forearms'], secondary: ['Back', 'Shoulders'], equipment: ['pull_up_bar'], goals: ['strength', 'mobility'] }, [3, 30, 60]),
  hold({ id: 'plate-pinch', name: 'Plate Pinch Hold', primary: ['Forearms'], secondary: [], equipment: ['weight_plate'], goals: ['strength'] }, [3, 30, 60]),
  hold({ id: 'wrist-flexor-stretch', name: 'Wrist Flexor Stretch', primary: ['Forearms'], secondary: [], equipment: [], goals: ['mobility'], role: 'cooldown' }, [2, 30, 10]),
  // Neck
  hold({ id: 'isometric-neck-flexion', name: 'Isometric Neck Flexion Hold', primary: ['Neck'], secondary: [], equipment: [], goals: ['strength', 'posture'] }, [3, 20, 30]),
  hold({ id: 'isometric-neck-extension', name: 'Isometric Neck Extension Hold', primary: ['Neck'], secondary: ['Trapezius'], equipment: [], goals: ['strength', 'posture'] }, [3, 20, 30]),
  reps({ id: 'plate-neck-flexion', name: 'Lying Plate Neck Flexion', primary: ['Neck'], secondary: [], equipment: ['weight_plate', 'bench'], goals: ['strength'] }, [3, 15, 45]),
  reps({ id: 'band-neck-extension', name: 'Band Neck Extension', primary: ['Neck'], secondary: ['Trapezius'], equipment: ['resistance_band'], goals: ['strength', 'posture'] }, [3, 15, 45]),
  reps({ id: 'chin-tuck', name: 'Chin Tuck', primary: ['Neck'], secondary: [], equipment: [], goals: ['posture', 'mobility'], role: 'warmup' }, [2, 12, 20]),
  hold({ id: 'neck-side-stretch', name: 'Neck Side Stretch', primary: ['Neck'], secondary: ['Trapezius'], equipment: [], goals: ['mobility'], role: 'cooldown' }, [2, 30, 10]),
  hold({ id: 'doorway-chest-stretch', name: 'Doorway Chest Stretch', primary: ['Chest'], secondary: ['Shoulders'], equipment: [], goals: ['mobility'], role: 'cooldown' }, [2, 30, 10]),
];
