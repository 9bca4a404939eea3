import type { EquipmentAccess } from '../../../protocol/nutrition/client-profile.ts';

/**
 * The muscle groups the COACH counts weekly sets for; they are the keys of
 * `weekly_volume_summary` (§4.7).
 */
export const MUSCLE_GROUPS = [
  'glutes',
  'quads',
  'hamstrings',
  'chest',
  'back',
  'shoulders',
  'biceps',
  'triceps',
  'calves',
  'core',
] as const;
export type MuscleGroup = (typeof MUSCLE_GROUPS)[number];

/**
 * The groups that must land inside the evidence-based weekly range; the others (arms, calves,
 * core) get enough indirect work from compounds that only an upper bound applies to them.
 */
export const MAJOR_MUSCLE_GROUPS: readonly MuscleGroup[] = [
  'glutes',
  'quads',
  'hamstrings',
  'chest',
  'back',
  'shoulders',
];

/** What a movement does; the COACH fills each session slot with a pattern, not a name. */
export type MovementPattern =
  | 'squat'
  | 'lunge'
  | 'hinge'
  | 'hip_thrust'
  | 'glute_isolation'
  | 'knee_flexion'
  | 'knee_extension'
  | 'calf_raise'
  | 'horizontal_push'
  | 'vertical_push'
  | 'chest_isolation'
  | 'horizontal_pull'
  | 'vertical_pull'
  | 'shoulder_isolation'
  | 'elbow_flexion'
  | 'elbow_extension'
  | 'core_stability'
  | 'carry';

/** One item of equipment. Bodyweight exercises need none. */
export type Equipment =
  | 'band'
  | 'light_dumbbells'
  | 'dumbbells'
  | 'bench'
  | 'barbell'
  | 'rack'
  | 'kettlebell'
  | 'pullup_bar'
  | 'cable'
  | 'machine';

/** A body area that a free-text injury can name; exercises loading it are contraindicated. */
export type InjuryArea = 'knee' | 'lower_back' | 'shoulder' | 'wrist' | 'elbow' | 'hip' | 'ankle' | 'neck';

/** How the load of an exercise goes up, which decides the wording of its progression rule. */
export type LoadType = 'external' | 'bodyweight' | 'band';

/** One exercise of the COACH's table. */
export interface TrainingExercise {
  /** Stable kebab-case id. */
  id: string;
  /** The name the program shows and the training log reports back. */
  name: string;
  pattern: MovementPattern;
  /** Groups credited one set per working set in the weekly volume (direct work only). */
  primary: readonly MuscleGroup[];
  /** Groups that also work but are not credited, so the summary stays an exact count. */
  secondary: readonly MuscleGroup[];
  /** Every item is needed; empty means bodyweight only. */
  equipment: readonly Equipment[];
  /** Machines, dumbbells at a bench, bands or bodyweight: simple to set up, no busy platform. */
  anxietyFriendly: boolean;
  /** 1 simple, 2 needs coaching cues, 3 technical barbell or ballistic lift. */
  complexity: 1 | 2 | 3;
  /** Areas this exercise loads enough to avoid when the client reports an injury there. */
  contraindications: readonly InjuryArea[];
  /** Compounds get the heavier rep range and longer rests. */
  kind: 'compound' | 'isolation' | 'core';
  load: LoadType;
  /** Reps are counted per leg or arm. */
  unilateral: boolean;
  /** Prescribed as a hold in seconds instead of reps. */
  hold: boolean;
  /** One technique cue, shown in the exercise notes. */
  cue: string;
}

/**
 * The equipment each §4.1 `equipment_access` value gives. `home_minimal` is bands and a pair of
 * light or adjustable dumbbells; `home_full` adds a bench, heavy dumbbells, a barbell with rack,
 * a kettlebell and a pull-up bar; a commercial gym adds cables and machines; `both` is the union.
 */
export const EQUIPMENT_KITS: Readonly<Record<EquipmentAccess, readonly Equipment[]>> = {
  home_minimal: ['band', 'light_dumbbells'],
  home_full: ['band', 'light_dumbbells', 'dumbbells', 'bench', 'barbell', 'rack', 'kettlebell', 'pullup_bar'],
  commercial_gym: [
    'band',
    'light_dumbbells',
    'dumbbells',
    'bench',
    'barbell',
    'rack',
    'kettlebell',
    'pullup_bar',
    'cable',
    'machine',
  ],
  both: [
    'band',
    'light_dumbbells',
    'dumbbells',
    'bench',
    'barbell',
    'rack',
    'kettlebell',
    'pullup_bar',
    'cable',
    'machine',
  ],
};

/** Whether every item an exercise needs is in `kit`. */
export function fitsKit(exercise: TrainingExercise, kit: readonly Equipment[]): boolean {
  return exercise.equipment.every((item) => kit.includes(item));
}

/** The `equipment_access` values under which an exercise can be done. */
export function accessesFor(exercise: TrainingExercise): EquipmentAccess[] {
  return (Object.keys(EQUIPMENT_KITS) as EquipmentAccess[]).filter((access) =>
    fitsKit(exercise, EQUIPMENT_KITS[access]),
  );
}

/** The fields of an entry that most exercises share, so the table lists only what differs. */
type ExerciseDefaults =
  'secondary' | 'contraindications' | 'anxietyFriendly' | 'complexity' | 'kind' | 'load' | 'unilateral' | 'hold';

/**
 * A table entry with the common defaults filled in: no secondary muscles, no contraindications,
 * anxiety-friendly, complexity 1, a compound with external load, bilateral, counted in reps.
 */
export function exercise(
  entry: Omit<TrainingExercise, ExerciseDefaults> & Partial<Pick<TrainingExercise, ExerciseDefaults>>,
): TrainingExercise {
  return {
    secondary: [],
    contraindications: [],
    anxietyFriendly: true,
    complexity: 1,
    kind: 'compound',
    load: 'external',
    unilateral: false,
    hold: false,
    ...entry,
  };
}
