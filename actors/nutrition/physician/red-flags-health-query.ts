import type { NutritionAgent } from '../../../protocol/nutrition/agents.ts';
import type { HealthQuery } from '../../../protocol/nutrition/health-query.ts';
import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import { bodyMassIndex, type RedFlag } from './red-flags.ts';

/** What the health query needs besides the flags. */
interface HealthQueryContext {
  readonly intake: IntakeData;
  /** The agent that found the flags; default SCIENTIST. */
  readonly requesting_agent?: NutritionAgent;
  /** The latest weight (a check-in's); default the intake weight. */
  readonly current_weight_kg?: number;
  /** Weeks on the program; default `intake.weeks_on_program ?? 0`. */
  readonly training_weeks?: number;
  /** Supplements the client takes now (e.g. the NUTRITIONIST's protocol); default none. */
  readonly supplements_current?: readonly string[];
}

/** A list with at least one element. */
export type NonEmpty<T> = readonly [T, ...T[]];

/**
 * One `health_query` (§4.8) for ALL the red flags of a run: §5 says several flags in one run are
 * batched into a single PHYSICIAN query, so this takes the whole list and never one flag at a time.
 * Each flag becomes a symptom line; the query text numbers them.
 *
 * @throws RangeError when `redFlags` is empty (there is nothing to ask).
 */
export function buildHealthQuery(redFlags: NonEmpty<RedFlag>, context: HealthQueryContext): HealthQuery {
  if (redFlags.length === 0) throw new RangeError('buildHealthQuery needs at least one red flag.');
  const { intake } = context;
  const requesting_agent = context.requesting_agent ?? 'SCIENTIST';
  const weight = context.current_weight_kg ?? intake.current_weight_kg;
  const where = redFlags.every((flag) => flag.source === 'intake') ? 'at intake' : 'at a weekly check-in';
  const listed = redFlags.map((flag, index) => `(${index + 1}) ${flag.symptom}`).join('; ');
  return {
    query_type: 'red_flag',
    query:
      `${requesting_agent} found ${redFlags.length} red flag${redFlags.length === 1 ? '' : 's'} ${where} ` +
      `for a weight-gain program: ${listed}. May the program continue, and is a referral needed?`,
    requesting_agent,
    user_context: {
      current_weight_kg: weight,
      bmi: bodyMassIndex(weight, intake.height_cm),
      symptoms: redFlags.map((flag) => flag.symptom),
      menstrual_status: intake.menstrual_status,
      training_weeks: context.training_weeks ?? intake.weeks_on_program ?? 0,
      supplements_current: [...(context.supplements_current ?? [])],
    },
  };
}
