import type { TrainingExperience } from '../../../protocol/nutrition/client-profile.ts';
import type { PlannedExercise, PlannedSession } from './coach-plan.ts';
import { pickExercise, type SelectionContext } from './coach-selection.ts';
import { setBounds, weeklyVolume, weeklyVolumeRanges, type VolumeRange } from './coach-volume.ts';
import { MAJOR_MUSCLE_GROUPS, MUSCLE_GROUPS, type MuscleGroup } from './training-exercise.ts';

/** One exercise of the plan with where it sits. */
interface Placed {
  session: number;
  position: number;
  entry: PlannedExercise;
}

/**
 * Adjusts set counts, and adds or removes accessory exercises, until every group is at or below
 * its weekly ceiling and every major group is at or above its floor where the client's
 * exercises allow it. Ceilings come first and a later step never breaks one, so the loop ends.
 * Returns the major groups left below their floor (an injury or the kit leaves no way to train
 * them enough), for the program to say so.
 */
export function balanceVolume(
  plan: PlannedSession[],
  experience: TrainingExperience,
  context: SelectionContext,
): MuscleGroup[] {
  const ranges = weeklyVolumeRanges(experience);
  const bounds = setBounds(experience);
  const short = new Set<MuscleGroup>();
  for (let step = 0; step < 1000; step++) {
    const volume = weeklyVolume(plan);
    const over = MUSCLE_GROUPS.find((group) => volume[group] > ranges[group].max);
    if (over) {
      if (!reduce(plan, over, volume, ranges, bounds)) break;
      continue;
    }
    const under = MAJOR_MUSCLE_GROUPS.find((group) => volume[group] < ranges[group].min && !short.has(group));
    if (!under) break;
    if (!raise(plan, under, volume, ranges, bounds, context)) short.add(under);
  }
  const volume = weeklyVolume(plan);
  return MAJOR_MUSCLE_GROUPS.filter((group) => volume[group] < ranges[group].min);
}

function placed(plan: readonly PlannedSession[], group: MuscleGroup): Placed[] {
  return plan.flatMap((session, sessionIndex) =>
    session.exercises.flatMap((entry, position) =>
      entry.exercise.primary.includes(group) ? [{ session: sessionIndex, position, entry }] : [],
    ),
  );
}

/** Orders by the given keys, lowest first. */
function best<T>(items: T[], keys: (item: T) => number[]): T | undefined {
  return [...items].sort((a, b) => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) {
      const difference = (ka[i] ?? 0) - (kb[i] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  })[0];
}

/**
 * One step down for a group above its ceiling: take a set off (the exercise with most sets,
 * accessories and later sessions first), else drop an accessory, preferring moves that keep the
 * other credited groups at their floor.
 */
function reduce(
  plan: PlannedSession[],
  group: MuscleGroup,
  volume: Record<MuscleGroup, number>,
  ranges: Record<MuscleGroup, VolumeRange>,
  bounds: VolumeRange,
): boolean {
  const all = placed(plan, group);
  const keepsFloors = (item: Placed, amount: number) =>
    item.entry.exercise.primary.every((other) => other === group || volume[other] - amount >= ranges[other].min);
  // Accessories give way before main lifts; within a role the largest block loses a set first.
  const order = (item: Placed) => [
    item.entry.role === 'accessory' ? 0 : 1,
    -item.entry.sets,
    -item.session,
    -item.position,
  ];
  const removable = (item: Placed) => (plan[item.session]?.exercises.length ?? 0) > 1;
  const lowerable = all.filter((item) => item.entry.sets > bounds.min);
  const choice =
    best(
      lowerable.filter((item) => keepsFloors(item, 1)),
      order,
    ) ??
    best(
      all.filter((item) => removable(item) && keepsFloors(item, item.entry.sets)),
      order,
    ) ??
    best(lowerable, order) ??
    best(all.filter(removable), order);
  if (!choice) return false;
  if (choice.entry.sets > bounds.min) choice.entry.sets -= 1;
  else plan[choice.session]?.exercises.splice(choice.position, 1);
  return true;
}

/**
 * One step up for a major group below its floor: add a set to one of its exercises (fewest
 * sets first, so sets spread), else add an accessory for it to the shortest session that has
 * room. Never takes any group over its ceiling.
 */
function raise(
  plan: PlannedSession[],
  group: MuscleGroup,
  volume: Record<MuscleGroup, number>,
  ranges: Record<MuscleGroup, VolumeRange>,
  bounds: VolumeRange,
  context: SelectionContext,
): boolean {
  const fits = (primary: readonly MuscleGroup[], amount: number) =>
    primary.every((other) => volume[other] + amount <= ranges[other].max);
  const choice = best(
    placed(plan, group).filter((item) => item.entry.sets < bounds.max && fits(item.entry.exercise.primary, 1)),
    (item) => [item.entry.sets, item.entry.role === 'main' ? 0 : 1, item.session, item.position],
  );
  if (choice) {
    choice.entry.sets += 1;
    return true;
  }
  const sessions = plan
    .map((_, index) => index)
    .sort((a, b) => (plan[a]?.exercises.length ?? 0) - (plan[b]?.exercises.length ?? 0) || a - b);
  for (const index of sessions) {
    const exercise = pickExercise(
      plan,
      index,
      context,
      (candidate) => candidate.primary.includes(group) && fits(candidate.primary, bounds.min),
      (candidate) => candidate.primary.length,
    );
    if (exercise) {
      plan[index]?.exercises.push({ exercise, sets: bounds.min, role: 'accessory' });
      return true;
    }
  }
  return replace(plan, group, volume, ranges, bounds, context);
}

/**
 * Last resort when every session is full: swap an accessory of another group for an exercise
 * of `group`, but only if the other group can win its sets back by adding sets to its
 * remaining exercises (or has no floor, like the core), so the swap is never undone.
 * Accessories that a stall changed give way only when no other one can; the stalled lift then
 * leaves the week, which is still a §7.3 modification (reported as dropped): only the kit and
 * injuries may leave a major group below its floor, not a stall.
 */
function replace(
  plan: PlannedSession[],
  group: MuscleGroup,
  volume: Record<MuscleGroup, number>,
  ranges: Record<MuscleGroup, VolumeRange>,
  bounds: VolumeRange,
  context: SelectionContext,
): boolean {
  const headroom = (other: MuscleGroup, without: PlannedExercise) =>
    placed(plan, other).reduce((sum, item) => sum + (item.entry === without ? 0 : bounds.max - item.entry.sets), 0);
  for (const stalled of [false, true]) {
    for (const [index, session] of plan.entries()) {
      for (let position = session.exercises.length - 1; position >= 0; position--) {
        const entry = session.exercises[position];
        if (
          !entry ||
          entry.role !== 'accessory' ||
          (entry.stall !== undefined) !== stalled ||
          entry.exercise.primary.includes(group)
        )
          continue;
        const recoverable = entry.exercise.primary.every(
          (other) => volume[other] - entry.sets + headroom(other, entry) >= ranges[other].min,
        );
        if (!recoverable) continue;
        session.exercises.splice(position, 1);
        const after = (other: MuscleGroup) => volume[other] - (entry.exercise.primary.includes(other) ? entry.sets : 0);
        const exercise = pickExercise(
          plan,
          index,
          context,
          (candidate) =>
            candidate.primary.includes(group) &&
            candidate.primary.every((other) => after(other) + bounds.min <= ranges[other].max),
          (candidate) => candidate.primary.length,
        );
        if (exercise) {
          const swapped: PlannedExercise = { exercise, sets: bounds.min, role: 'accessory' };
          if (entry.stall)
            swapped.stall = {
              kind: 'dropped',
              from: entry.stall.kind === 'rep_range' ? entry.exercise.name : entry.stall.from,
            };
          session.exercises.splice(position, 0, swapped);
          return true;
        }
        session.exercises.splice(position, 0, entry);
      }
    }
  }
  return false;
}
