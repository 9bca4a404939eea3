import { ALGORITHM_FAMILIES } from '../fleet/algorithm-families.ts';
import { recogniseProblem } from '../fleet/recognize-problem.ts';
import type { Problem } from '../../../protocol/tiers/problem.ts';
import { statedComplexity } from './constraint-rules.ts';

/**
 * Which questions a tier answers itself (spec 002: "higher tier either clarifies or revises the
 * delegation"), from what it holds, before a question flows on up. Data, so the README shows
 * exactly what the tiers do; the decision is rule-based with or without a model key.
 */

/** A reviewer's question: its delegation names no complexity bound to check (no claim, no O(...) in its constraints). */
export const MISSING_COMPLEXITY_BOUND = 'missing_complexity_bound';
/** The solver's question: one input, two expected values. Only the user who wrote the tests can say which is right. */
export const AMBIGUOUS_REQUEST = 'ambiguous_request';

/** The tiers that may answer a question from below (the Monitor never does: its questions go to the user). */
export type AnsweringTier = 'ROUTING_DISPATCHER' | 'ABSTRACT_ARCHITECT';

/** What a tier holds when a question reaches it. */
export interface TierKnowledge {
  /** Constraints it holds: its own delegation's, and for the Architect `task/constraints` too. */
  constraints: readonly string[];
  /** The task's problem (`task/problem-statement`, `task/test-cases`); the Architect plans from it. */
  problem?: Problem;
}

/** A tier's answer: what it tells the asker, and the constraint it adds to the revised delegation. */
export interface ClarificationAnswer {
  rule: string;
  answer: string;
  /** The bound the reviewer is to check (`task_data.claimed_complexity`). */
  claimed_complexity: string;
  constraint: string;
}

/** One row of the table, as the README shows it. */
export interface ClarificationRule {
  id: string;
  question: string;
  tier: AnsweringTier | 'user';
  when: string;
  then: string;
  answer(knowledge: TierKnowledge): ClarificationAnswer | undefined;
}

const boundAnswer = (rule: string, bound: string, from: string): ClarificationAnswer => ({
  rule,
  answer: `Check ${bound} (${from}).`,
  claimed_complexity: bound,
  constraint: `${bound} time complexity required`,
});

/** The first bound a constraint states, in big-O or in words ("logarithmic", "linear time"). */
const boundIn = (constraints: readonly string[]) =>
  constraints.map(statedComplexity).find((bound) => bound !== undefined);

/** The table, in the order a tier tries its rows. */
export const CLARIFICATION_RULES: readonly ClarificationRule[] = [
  {
    id: 'dispatcher-stated-bound',
    question: MISSING_COMPLEXITY_BOUND,
    tier: 'ROUTING_DISPATCHER',
    when: 'a constraint of its delegation (the plan, = `task/constraints`) states a bound, in big-O or in words, that the subtask did not get',
    then: 'a new attempt of the subtask claiming that bound',
    answer: (k) => {
      const bound = boundIn(k.constraints);
      return bound === undefined
        ? undefined
        : boundAnswer('dispatcher-stated-bound', bound, 'stated in the task’s constraints');
    },
  },
  {
    id: 'architect-stated-bound',
    question: MISSING_COMPLEXITY_BOUND,
    tier: 'ABSTRACT_ARCHITECT',
    when: 'the statement, the user’s constraints or `task/constraints` state a bound',
    then: 'a revised plan whose review subtask claims it',
    answer: (k) => {
      const bound = boundIn([...(k.problem ? [k.problem.statement] : []), ...k.constraints]);
      return bound === undefined ? undefined : boundAnswer('architect-stated-bound', bound, 'stated in the task');
    },
  },
  {
    id: 'architect-family-bound',
    question: MISSING_COMPLEXITY_BOUND,
    tier: 'ABSTRACT_ARCHITECT',
    when: 'nothing states a bound, and the problem is one of the known algorithm families (recognised as the fleet does, never by `problem_id`)',
    then: 'a revised plan whose review subtask claims the complexity of the family’s first (canonical) template',
    answer: (k) => {
      if (!k.problem) return undefined;
      const [match] = recogniseProblem(k.problem, ALGORITHM_FAMILIES, k.constraints.join('\n'));
      const canonical = match?.family.templates[0];
      return (
        canonical &&
        boundAnswer(
          'architect-family-bound',
          canonical.complexity,
          `the canonical ${canonical.name} solution of the ${match.family.id} family`,
        )
      );
    },
  },
  {
    id: 'user-contradictory-tests',
    question: AMBIGUOUS_REQUEST,
    tier: 'user',
    when: 'test cases give one input two expected values',
    then: 'no tier answers: the question reaches the Monitor and the task waits for its user',
    answer: () => undefined,
  },
];

/**
 * The answer of `tier` to a question of type `question` (the outcome's `error_type`) from what it
 * holds, or undefined: the question flows on up. A question type no row names is never answered.
 *
 * @example
 * answerQuestion('ROUTING_DISPATCHER', 'missing_complexity_bound', { constraints: ['Must run in logarithmic time'] })?.claimed_complexity; // 'O(log n)'
 */
export function answerQuestion(
  tier: AnsweringTier,
  question: string | null | undefined,
  knowledge: TierKnowledge,
): ClarificationAnswer | undefined {
  for (const rule of CLARIFICATION_RULES) {
    if (rule.tier !== tier || rule.question !== question) continue;
    const answer = rule.answer(knowledge);
    if (answer) return answer;
  }
  return undefined;
}
