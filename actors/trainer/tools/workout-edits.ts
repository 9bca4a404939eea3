import { GROUP_LEADER_FIELDS, GROUP_SIZE, type ExerciseGroup } from '../../../protocol/trainer/tools/exercise-group.ts';

type Slot = { id?: string; order: number; group?: ExerciseGroup | undefined };
type LeaderFields = Pick<ExerciseGroup, (typeof GROUP_LEADER_FIELDS)[number]>;

function leaderFieldsOf(group: ExerciseGroup): LeaderFields {
  const fields: LeaderFields = {};
  for (const field of GROUP_LEADER_FIELDS) {
    if (group[field] !== undefined && group[field] !== null) Object.assign(fields, { [field]: group[field] });
  }
  return fields;
}

function withoutLeaderFields(group: ExerciseGroup): ExerciseGroup {
  const { name: _name, rounds: _rounds, rest_between_rounds_sec: _rest, ...rest } = group;
  return rest;
}

/**
 * Finds an exercise by id or, failing that, by its order number ("2"), as swap, adjust, remove
 * and log accept both (spec 001 §12.4). An id wins over an order number that looks the same.
 */
export function findExercise<T extends Slot>(
  exercises: readonly T[],
  ref: string,
): { exercise: T; index: number } | undefined {
  const trimmed = ref.trim();
  let index = exercises.findIndex((exercise) => exercise.id === trimmed);
  if (index < 0 && /^#?\d+$/.test(trimmed)) {
    const order = Number(trimmed.replace('#', ''));
    index = exercises.findIndex((exercise) => exercise.order === order);
  }
  const exercise = exercises[index];
  return exercise === undefined ? undefined : { exercise, index };
}

/**
 * Puts exercises in order and numbers them 1..n, then mends groups: members are numbered 1..k
 * in workout order, the group's name/rounds/rest sit on its first member only, and a group left
 * with too few members for its type (a superset of one) is dissolved.
 */
export function renumberExercises<T extends Slot>(
  exercises: readonly T[],
  carried = new Map<string, LeaderFields>(),
): T[] {
  const sorted = [...exercises].sort((a, b) => a.order - b.order).map((exercise, i) => ({ ...exercise, order: i + 1 }));
  const members = new Map<string, number[]>();
  sorted.forEach((exercise, i) => {
    if (exercise.group) members.set(exercise.group.id, [...(members.get(exercise.group.id) ?? []), i]);
  });
  for (const [groupId, indexes] of members) {
    const groups = indexes.map((i) => sorted[i]?.group).filter((g): g is ExerciseGroup => g !== undefined);
    const type = groups[0]?.type;
    if (type === undefined) continue;
    if (indexes.length < GROUP_SIZE[type].min) {
      for (const i of indexes) {
        const { group: _dropped, ...rest } = sorted[i] as T;
        sorted[i] = rest as T;
      }
      continue;
    }
    const leader = Object.assign({}, carried.get(groupId), ...groups.map(leaderFieldsOf).reverse()) as LeaderFields;
    indexes.forEach((i, k) => {
      const exercise = sorted[i] as T;
      const base = withoutLeaderFields(exercise.group as ExerciseGroup);
      sorted[i] = { ...exercise, group: { ...base, position: k + 1, ...(k === 0 ? leader : {}) } };
    });
  }
  return sorted;
}

/** Removes the exercise at `index`; a removed group leader hands its name/rounds/rest to the next member. */
export function removeExerciseAt<T extends Slot>(exercises: readonly T[], index: number): T[] {
  const removed = exercises[index];
  const carried = new Map<string, LeaderFields>();
  if (removed?.group) carried.set(removed.group.id, leaderFieldsOf(removed.group));
  return renumberExercises(
    exercises.filter((_, i) => i !== index),
    carried,
  );
}
