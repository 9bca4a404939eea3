import type { PlannedSession } from './coach-plan.ts';

/**
 * Share of the weekly sets kept in a deload week: cutting volume by 40-50 % while keeping load
 * dissipates fatigue without losing strength (Bell et al. 2023 deload consensus; Pritchard et
 * al. 2015 tapering review). 0.55 keeps the cut at 45 %.
 */
const DELOAD_SET_SHARE = 0.55;

/** Most sets a deload week may keep out of `normalSets`. */
function deloadSetTarget(normalSets: number): number {
  return Math.round(normalSets * DELOAD_SET_SHARE);
}

/**
 * Turns a normal week into its deload week in place: the same exercises with sets taken off
 * the largest blocks first (down to one set each), then, only if one set each is still too
 * much, accessories dropped from the end of the longest sessions.
 */
export function deloadPlan(plan: PlannedSession[]): void {
  const total = () =>
    plan.reduce((sum, session) => sum + session.exercises.reduce((inner, entry) => inner + entry.sets, 0), 0);
  const target = deloadSetTarget(total());
  while (total() > target) {
    const entries = plan.flatMap((session) => session.exercises).filter((entry) => entry.sets > 1);
    const largest = entries.reduce<(typeof entries)[number] | undefined>(
      (found, entry) =>
        !found || entry.sets > found.sets || (entry.sets === found.sets && entry.role === 'accessory') ? entry : found,
      undefined,
    );
    if (largest) {
      largest.sets -= 1;
      continue;
    }
    const session = [...plan].sort((a, b) => b.exercises.length - a.exercises.length)[0];
    if (!session || session.exercises.length <= 1) break;
    session.exercises.pop();
  }
}
