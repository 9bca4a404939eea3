import type { Weekday } from '../../../protocol/nutrition/weekday.ts';
import { isEligible, samePrimaries, type PlannedExercise, type PlannedSession } from './coach-plan.ts';
import { MAX_EXERCISES, MAX_NOVEL_LIFTS, SESSION_TEMPLATES, type SessionSlot } from './coach-templates.ts';
import { initialSets } from './coach-volume.ts';
import type { TrainingExercise } from './training-exercise.ts';
import { normalizeExerciseName, TRAINING_EXERCISES } from './training-exercise-table.ts';

/** What exercise selection knows about the client beyond a session's eligibility criteria. */
export interface SelectionContext {
  /** Normalised names the client already knows: the training log and the previous program. */
  familiar: ReadonlySet<string>;
  /** Normalised names of the previous program's exercises per day, kept when still valid. */
  preferred: ReadonlyMap<Weekday, readonly string[]>;
  /** Normalised names of the lifts that stalled (§7.3), to swap or re-range. */
  stalled: ReadonlySet<string>;
}

const KEYS = new Map(TRAINING_EXERCISES.map((exercise) => [exercise, normalizeExerciseName(exercise.name)]));
const key = (exercise: TrainingExercise) => KEYS.get(exercise) ?? normalizeExerciseName(exercise.name);
const LOAD_RANK = { external: 0, band: 1, bodyweight: 2 } as const;

/** Normalised names of the exercises in the sessions before `index`. */
function earlierNames(plan: readonly PlannedSession[], index: number): Set<string> {
  return new Set(plan.slice(0, index).flatMap((session) => session.exercises.map((entry) => key(entry.exercise))));
}

/** How many lifts session `index` introduces (new to the client and to the week so far). */
function novelCount(plan: readonly PlannedSession[], index: number, context: SelectionContext): number {
  const earlier = earlierNames(plan, index);
  return (plan[index]?.exercises ?? []).filter(
    (entry) => !context.familiar.has(key(entry.exercise)) && !earlier.has(key(entry.exercise)),
  ).length;
}

const TABLE_ORDER = new Map(TRAINING_EXERCISES.map((exercise, index) => [exercise, index]));

/**
 * The best exercise for session `index` among those `accept` lets through, or undefined. Only
 * an exercise the session has room for qualifies: under its size limit, not already in it, and
 * within the novelty cap of the client's gym anxiety if it is new to them.
 * Order: the previous program's choices for that day, in their order; the slot's pattern
 * order; known lifts first with high anxiety and for novices (who learn by repetition), unused
 * ones first for intermediates (variety); anxiety-friendly ones for moderate anxiety; simple
 * lifts for novices, loadable then technical ones for intermediates; then the table's order.
 */
export function pickExercise(
  plan: readonly PlannedSession[],
  index: number,
  context: SelectionContext,
  accept: (exercise: TrainingExercise) => boolean,
  patternRank: (exercise: TrainingExercise) => number = () => 0,
): TrainingExercise | undefined {
  const session = plan[index];
  if (!session) return undefined;
  const { experience, anxiety } = session.criteria;
  if (session.exercises.length >= MAX_EXERCISES[experience]) return undefined;
  const preferred = context.preferred.get(session.day) ?? [];
  const earlier = earlierNames(plan, index);
  const usedThisWeek = new Set(plan.flatMap((entry) => entry.exercises.map((planned) => key(planned.exercise))));
  const inSession = new Set(session.exercises.map((entry) => entry.exercise.id));
  const novelFull = novelCount(plan, index, context) >= MAX_NOVEL_LIFTS[anxiety];
  const rank = (exercise: TrainingExercise): number[] => {
    const name = key(exercise);
    const known = context.familiar.has(name) || usedThisWeek.has(name) ? 0 : 1;
    // Intermediates like variety between sessions; novices learn faster repeating the same lifts.
    const repeat = experience === 'intermediate' ? 1 - known : known;
    return [
      preferred.includes(name) ? preferred.indexOf(name) : preferred.length,
      patternRank(exercise),
      anxiety === 'high' ? known : repeat,
      anxiety === 'moderate' && !exercise.anxietyFriendly ? 1 : 0,
      // Intermediates progress by load, so loadable lifts come first, the technical ones among them.
      experience === 'intermediate' ? LOAD_RANK[exercise.load] : exercise.complexity,
      experience === 'intermediate' ? -exercise.complexity : LOAD_RANK[exercise.load],
      TABLE_ORDER.get(exercise) ?? 0,
    ];
  };
  const ranked = TRAINING_EXERCISES.filter((exercise) => {
    if (inSession.has(exercise.id) || !isEligible(exercise, session.criteria) || !accept(exercise)) return false;
    return !novelFull || context.familiar.has(key(exercise)) || earlier.has(key(exercise));
  }).map((exercise) => ({ exercise, rank: rank(exercise) }));
  ranked.sort((a, b) => compareRanks(a.rank, b.rank));
  return ranked[0]?.exercise;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The stall change for a planned exercise that is not (or no longer) in session `index`: a
 * stalled lift is swapped for a variation of the same pattern and kind that credits the same
 * muscles, so the week's volume is unchanged; it keeps its place with a new rep range when no
 * such variation fits, or when high anxiety makes a new lift the worse option.
 */
export function applyStall(
  plan: PlannedSession[],
  index: number,
  entry: PlannedExercise,
  context: SelectionContext,
): PlannedExercise {
  const stalled = entry.exercise;
  if (!context.stalled.has(key(stalled))) return entry;
  const variation =
    plan[index]?.criteria.anxiety === 'high'
      ? undefined
      : pickExercise(
          plan,
          index,
          context,
          (exercise) =>
            exercise.pattern === stalled.pattern &&
            exercise.kind === stalled.kind &&
            samePrimaries(exercise, stalled) &&
            !context.stalled.has(key(exercise)),
        );
  return variation
    ? { ...entry, exercise: variation, stall: { kind: 'swapped', from: stalled.name } }
    : { ...entry, stall: { kind: 'rep_range' } };
}

/**
 * Fills one slot of session `index`: an exercise of the slot's patterns, else any exercise for
 * its muscle group (an injury or the kit may rule the patterns out), else nothing.
 */
function fillSlot(
  plan: PlannedSession[],
  index: number,
  slot: SessionSlot,
  context: SelectionContext,
): PlannedExercise | undefined {
  const byPattern = (exercise: TrainingExercise) => slot.patterns.indexOf(exercise.pattern);
  const picked =
    pickExercise(plan, index, context, (exercise) => slot.patterns.includes(exercise.pattern), byPattern) ??
    pickExercise(plan, index, context, (exercise) => exercise.primary.includes(slot.group));
  if (!picked) return undefined;
  const sets = initialSets(plan[index]!.criteria.experience, slot.role);
  return applyStall(plan, index, { exercise: picked, sets, role: slot.role }, context);
}

/** Builds each session's exercises from its template, slot by slot, in week order. */
export function selectExercises(plan: PlannedSession[], context: SelectionContext): void {
  plan.forEach((session, index) => {
    for (const slot of SESSION_TEMPLATES[session.kind]) {
      const planned = fillSlot(plan, index, slot, context);
      if (planned) session.exercises.push(planned);
    }
  });
}
