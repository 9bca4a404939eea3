import type {
  EquipmentAccess,
  GymAnxietyLevel,
  TrainingExperience,
} from '../../../protocol/nutrition/client-profile.ts';
import { WeekdaySchema, type Weekday } from '../../../protocol/nutrition/weekday.ts';
import type { CoachPhase } from './coach-phase.ts';
import type { SessionKind, SessionLocation } from './coach-plan.ts';
import { EQUIPMENT_KITS, type Equipment } from './training-exercise.ts';

const WEEK: readonly Weekday[] = WeekdaySchema.options;

/**
 * Most sessions a week per experience. Twice-weekly full-body training already gives novices
 * near-maximal gains (ACSM 2009 progression stand: 2-3 days for novices, 3-4 for intermediates);
 * more days than that only add fatigue for someone who also has to eat in a surplus.
 */
export const MAX_SESSIONS: Readonly<Record<TrainingExperience, number>> = { none: 3, beginner: 4, intermediate: 5 };

/** Sessions per week: every available day up to the experience's maximum. */
export function sessionFrequency(experience: TrainingExperience, availableDays: number): number {
  return Math.max(1, Math.min(availableDays, MAX_SESSIONS[experience]));
}

/**
 * Picks `count` of the available days, spread as evenly as the week allows: the choice that
 * maximises the shortest rest gap (counted around the week), then the sum of squared gaps
 * smallest, then the earliest days. Exhaustive: at most C(7, 3) = 35 choices.
 */
export function chooseTrainingDays(available: readonly Weekday[], count: number): Weekday[] {
  const days = WEEK.filter((day) => available.includes(day));
  let best: Weekday[] = days.slice(0, count);
  let bestScore: [number, number] = [-1, 0];
  for (const choice of subsets(days, count)) {
    const indices = choice.map((day) => WEEK.indexOf(day));
    const gaps = indices.map((index, i) => ((indices[(i + 1) % indices.length] ?? index) - index + 7) % 7 || 7);
    const score: [number, number] = [Math.min(...gaps), -gaps.reduce((sum, gap) => sum + gap * gap, 0)];
    if (score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1])) {
      best = choice;
      bestScore = score;
    }
  }
  return best;
}

/** Every `count`-element subset of `items`, in lexicographic order. */
function subsets<T>(items: readonly T[], count: number): T[][] {
  if (count === 0) return [[]];
  const result: T[][] = [];
  items.forEach((item, index) => {
    for (const rest of subsets(items.slice(index + 1), count - 1)) result.push([item, ...rest]);
  });
  return result;
}

/**
 * The split: full body up to three sessions (each muscle trained 2-3 times a week,
 * Schoenfeld, Ogborn & Krieger 2016), upper/lower from four, plus a full-body day at five.
 * Lower-body days come first so the glute-emphasis work is done fresh.
 */
export function sessionKinds(frequency: number): SessionKind[] {
  if (frequency <= 3) return (['full_body_a', 'full_body_b', 'full_body_a'] as const).slice(0, frequency);
  if (frequency === 4) return ['lower', 'upper', 'lower', 'upper'];
  const kinds: SessionKind[] = ['lower', 'upper', 'full_body_b', 'lower', 'upper', 'full_body_a', 'lower'];
  return kinds.slice(0, frequency);
}

/**
 * Where each session happens. High gym anxiety trains home-first when there is a home: with
 * `both`, every foundation session is at home and later phases add one gym session at quiet
 * hours as graded exposure; a gym-only client trains at quiet hours. Everyone else uses the
 * gym when they have one.
 */
export function sessionLocations(
  access: EquipmentAccess,
  anxiety: GymAnxietyLevel,
  phase: CoachPhase,
  frequency: number,
): SessionLocation[] {
  const all = (location: SessionLocation) => Array.from({ length: frequency }, () => location);
  if (access === 'home_minimal' || access === 'home_full') return all('home');
  if (anxiety !== 'high') return all('gym');
  if (access === 'commercial_gym') return all('gym_quiet_hours');
  const locations = all('home');
  if (phase !== 'foundation' && frequency >= 2) locations[frequency - 1] = 'gym_quiet_hours';
  return locations;
}

/**
 * The equipment of a session. A `both` client's home setup is unknown, so home sessions assume
 * the minimal kit (bands and light dumbbells).
 */
export function kitFor(access: EquipmentAccess, location: SessionLocation): readonly Equipment[] {
  if (location !== 'home') return EQUIPMENT_KITS[access];
  return access === 'both' || access === 'commercial_gym' ? EQUIPMENT_KITS.home_minimal : EQUIPMENT_KITS[access];
}
