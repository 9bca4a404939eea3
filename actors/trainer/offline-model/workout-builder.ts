import type { Equipment } from '../../../protocol/trainer/tools/equipment.ts';
import type { ExerciseGroup } from '../../../protocol/trainer/tools/exercise-group.ts';
import type { Exercise, ExerciseType } from '../../../protocol/trainer/tools/exercise.ts';
import type { Muscle } from '../../../protocol/trainer/tools/muscle.ts';
import { WorkoutPayloadSchema, type WorkoutPayload } from '../../../protocol/trainer/tools/workout-payload.ts';
import {
  EXERCISE_LIBRARY,
  isDoableWith,
  type ExerciseRole,
  type LibraryExercise,
} from '../exercises/exercise-library.ts';
import { toWorkoutExercise } from '../exercises/exercise-library-prescription.ts';
import type { Avoidances } from './context-facts.ts';
import { FULL_BODY, LEGS } from './text-cues.ts';

/** What the workout must honour, gathered from the message and the context. */
export interface WorkoutPlan {
  /** Target muscles, most important first; never empty. */
  muscles: Muscle[];
  /** Goal categories, most important first. */
  goals: string[];
  /** Exercise types the user asked for; empty means the usual mix. */
  types: ExerciseType[];
  /** The equipment at hand ([] is bodyweight only). */
  equipment: Equipment[];
  minutes?: number | undefined;
  quick: boolean;
  avoid: Avoidances;
  /** Exercises done recently, picked last for variety. */
  recent: string[];
  locationName: string;
}

const CONDITIONING: readonly ExerciseType[] = ['intervals', 'duration'];

/** Whether the user's preferences rule an exercise out. */
function isAvoided(entry: LibraryExercise, avoid: Avoidances): boolean {
  const name = entry.name.toLowerCase();
  return avoid.words.some((word) => name.includes(word)) || entry.primary.some((m) => avoid.muscles.includes(m));
}

/** Ranks an exercise for the plan: goals served, types asked for, variety, then library order. */
function scoreOf(entry: LibraryExercise, plan: WorkoutPlan, muscle?: Muscle): number {
  const goalScore = plan.goals.reduce((sum, goal, i) => sum + (entry.goals.includes(goal) ? (i === 0 ? 3 : 2) : 0), 0);
  const typeScore = plan.types.includes(entry.type) ? 3 : 0;
  const focus = muscle !== undefined && entry.primary[0] === muscle ? 1 : 0;
  const recent = plan.recent.includes(entry.name) ? 2 : 0;
  return goalScore + typeScore + focus - recent;
}

/** Muscles that work with each target, for filling a session when the target alone runs out. */
const SYNERGISTS: Partial<Record<Muscle, readonly Muscle[]>> = {
  Chest: ['Triceps', 'Shoulders'],
  Back: ['Biceps', 'Trapezius', 'Lower Back'],
  Shoulders: ['Trapezius', 'Triceps'],
  Biceps: ['Forearms', 'Back'],
  Triceps: ['Chest', 'Shoulders'],
  Quadriceps: ['Glutes', 'Adductors'],
  Hamstrings: ['Glutes', 'Lower Back'],
  Glutes: ['Hamstrings', 'Abductors'],
  Calves: ['Quadriceps'],
  Abs: ['Lower Back'],
  'Lower Back': ['Glutes', 'Abs'],
};

type Match = 'primary' | 'secondary';

function pick(
  plan: WorkoutPlan,
  used: Set<string>,
  roles: readonly ExerciseRole[],
  types: readonly ExerciseType[] | undefined,
  muscle?: Muscle,
  match: Match = 'primary',
) {
  const hits = (entry: LibraryExercise) =>
    muscle === undefined || (match === 'primary' ? entry.primary : entry.secondary).includes(muscle);
  const candidates = EXERCISE_LIBRARY.filter(
    (entry) =>
      !used.has(entry.id) &&
      roles.includes(entry.role) &&
      (types === undefined || types.includes(entry.type)) &&
      hits(entry) &&
      isDoableWith(entry, plan.equipment) &&
      !isAvoided(entry, plan.avoid),
  );
  const best = candidates
    .map((entry, index) => ({ entry, index, score: scoreOf(entry, plan, muscle) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)[0]?.entry;
  if (best) used.add(best.id);
  return best;
}

/**
 * The main exercises: one per target muscle in turn, round after round, until the slots are
 * full. When the equipment runs out of exercises for the targets, exercises that work them as a
 * secondary muscle come next, then exercises for their synergists.
 */
function mainExercises(plan: WorkoutPlan, used: Set<string>, slots: number): LibraryExercise[] {
  const conditioningOnly = plan.types.length > 0 && plan.types.every((type) => CONDITIONING.includes(type));
  // A mobility session may use the library's warm-up and cool-down stretches as its main work.
  const roles: ExerciseRole[] = conditioningOnly
    ? ['main', 'conditioning']
    : plan.goals[0] === 'mobility'
      ? ['main', 'warmup', 'cooldown']
      : ['main'];
  const types: readonly ExerciseType[] = conditioningOnly ? plan.types : ['reps', 'hold'];
  const synergists = [...new Set(plan.muscles.flatMap((m) => SYNERGISTS[m] ?? []))].filter(
    (m) => !plan.muscles.includes(m),
  );
  const phases: [readonly Muscle[], Match][] = [
    [plan.muscles, 'primary'],
    [plan.muscles, 'secondary'],
    [synergists, 'primary'],
  ];
  const picked: LibraryExercise[] = [];
  for (const [muscles, match] of phases) {
    while (picked.length < slots) {
      const before = picked.length;
      for (const muscle of muscles) {
        if (picked.length >= slots) break;
        const entry = pick(plan, used, roles, types, muscle, match);
        if (entry) picked.push(entry);
      }
      if (picked.length === before) break;
    }
  }
  return picked;
}

/** A warm-up or cool-down for the target muscles (primary, then secondary) if there is one, else any. */
function pickBookend(plan: WorkoutPlan, used: Set<string>, role: ExerciseRole): LibraryExercise | undefined {
  for (const match of ['primary', 'secondary'] as const) {
    for (const muscle of plan.muscles) {
      const entry = pick(plan, used, [role], undefined, muscle, match);
      if (entry) return entry;
    }
  }
  return pick(plan, used, [role], undefined);
}

/** "Chest & Triceps", "Leg", "Full Body". */
export function focusLabel(muscles: readonly Muscle[]): string {
  const same = (list: readonly Muscle[]) => list.length === muscles.length && list.every((m) => muscles.includes(m));
  if (same(FULL_BODY)) return 'Full Body';
  if (same(LEGS)) return 'Leg';
  return muscles.slice(0, 3).join(' & ');
}

const group = (id: string, type: ExerciseGroup['type'], name: string): ExerciseGroup => ({
  id,
  type,
  position: 1,
  name,
});

/**
 * Builds a real workout from the built-in library: a warm-up, main work spread over the target
 * muscles, a core hold when abs are targeted, a conditioning finisher for cardio or endurance
 * goals, a cool-down for mobility goals or long sessions. Every exercise is doable with the
 * plan's equipment and none is ruled out by the preferences. Undefined when nothing fits.
 */
export function buildWorkout(plan: WorkoutPlan): WorkoutPayload | undefined {
  const total =
    plan.minutes !== undefined ? Math.min(9, Math.max(3, Math.round(plan.minutes / 7))) : plan.quick ? 4 : 6;
  const used = new Set<string>();
  const wantsConditioning =
    plan.goals.some((goal) => goal === 'cardio' || goal === 'endurance') ||
    plan.types.some((t) => CONDITIONING.includes(t));
  const conditioningOnly = plan.types.length > 0 && plan.types.every((type) => CONDITIONING.includes(type));
  const warmup = total >= 4 ? pickBookend(plan, used, 'warmup') : undefined;
  const cooldown = plan.goals.includes('mobility') || total >= 7 ? pickBookend(plan, used, 'cooldown') : undefined;
  const coreHold =
    plan.muscles.includes('Abs') && !conditioningOnly ? pick(plan, used, ['main'], ['hold'], 'Abs') : undefined;
  const finisher =
    wantsConditioning && !conditioningOnly
      ? pick(
          plan,
          used,
          ['conditioning', 'main'],
          plan.types.includes('duration') && !plan.types.includes('intervals') ? ['duration'] : ['intervals'],
        )
      : undefined;
  const extras = [warmup, coreHold, finisher, cooldown].filter((entry) => entry !== undefined).length;
  const mainSlots = Math.max(1, total - extras);
  const main = mainExercises(plan, used, mainSlots);
  // Conditioning works the whole body: when the targets have too little of it, any muscle will do.
  if (conditioningOnly && main.length < mainSlots) {
    main.push(...mainExercises({ ...plan, muscles: [...FULL_BODY] }, used, mainSlots - main.length));
  }
  if (main.length === 0) main.push(...mainExercises({ ...plan, muscles: [...FULL_BODY], types: [] }, used, mainSlots));
  if (main.length === 0) return undefined;

  const volume = plan.quick ? 0.75 : 1;
  const where = `the equipment at ${plan.locationName}`;
  const goalText = (entry: LibraryExercise) =>
    entry.goals.filter((goal) => plan.goals.includes(goal)).join(' and ') || entry.goals[0];
  const slots: { entry: LibraryExercise; group?: ExerciseGroup; reasoning: string }[] = [];
  if (warmup)
    slots.push({
      entry: warmup,
      group: group('warmup-1', 'warmup', 'Warm-up'),
      reasoning: `Warms up the ${warmup.primary.join(' and ')} before the main work.`,
    });
  main.forEach((entry) =>
    slots.push({
      entry,
      reasoning: `Main ${entry.primary.join(' & ')} work for your ${goalText(entry)} goal; fits ${where}.`,
    }),
  );
  const supersetReady = plan.goals[0] === 'hypertrophy' && main.length >= 4;
  if (supersetReady) {
    const first = slots.length - 2;
    slots[first] = {
      ...(slots[first] as (typeof slots)[number]),
      group: group('superset-1', 'superset', 'Finisher superset'),
    };
    slots[first + 1] = {
      ...(slots[first + 1] as (typeof slots)[number]),
      group: { id: 'superset-1', type: 'superset', position: 2 },
    };
  }
  if (coreHold)
    slots.push({ entry: coreHold, reasoning: `Isometric core work: builds ${goalText(coreHold)} for the Abs.` });
  if (finisher)
    slots.push({ entry: finisher, reasoning: `Conditioning finisher for your ${goalText(finisher)} goal.` });
  if (cooldown)
    slots.push({
      entry: cooldown,
      group: group('cooldown-1', 'cooldown', 'Cool-down'),
      reasoning: 'Brings the heart rate down and restores range of motion.',
    });

  const exercises: Exercise[] = slots.map((slot, i) =>
    toWorkoutExercise(slot.entry, {
      order: i + 1,
      goals: plan.goals,
      reasoning: slot.reasoning,
      volume,
      ...(slot.group ? { group: slot.group } : {}),
    }),
  );
  const hiit = conditioningOnly && plan.types.includes('intervals');
  const title = `${plan.quick ? 'Quick ' : ''}${focusLabel(plan.muscles)} ${hiit ? 'HIIT' : 'Workout'}`.slice(0, 120);
  const equipmentText =
    plan.equipment.length === 0 ? 'bodyweight only' : plan.equipment.join(', ').replaceAll('_', ' ');
  const goals = plan.goals.length > 0 ? plan.goals.join(' and ') : 'general fitness';
  const payload = {
    title,
    description: `${exercises.length} exercises for ${plan.locationName} (${equipmentText}), aimed at ${goals}.`,
    exercises,
  };
  const checked = WorkoutPayloadSchema.safeParse(payload);
  return checked.success ? checked.data : undefined;
}
