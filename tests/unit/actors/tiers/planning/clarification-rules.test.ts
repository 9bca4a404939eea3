import { describe, expect, it } from 'vitest';
import { ALGORITHM_FAMILIES } from '../../../../../actors/tiers/fleet/algorithm-families.ts';
import { createReviewer } from '../../../../../actors/tiers/fleet/reviewer.ts';
import {
  answerQuestion,
  CLARIFICATION_RULES,
  MISSING_COMPLEXITY_BOUND,
} from '../../../../../actors/tiers/planning/clarification-rules.ts';
import { FAMILY_PROBLEMS } from '../fleet/family-problems.ts';

describe('CLARIFICATION_RULES', () => {
  it('lets the Dispatcher answer a missing bound only from a bound its constraints state, in big-O or in words', () => {
    const ask = (constraints: string[]) =>
      answerQuestion('ROUTING_DISPATCHER', MISSING_COMPLEXITY_BOUND, { constraints });
    expect(ask(['Must run in logarithmic time'])?.claimed_complexity).toBe('O(log n)');
    expect(ask(['Must handle empty arrays', 'O(n) time complexity required'])?.claimed_complexity).toBe('O(n)');
    expect(ask(['Must handle empty arrays'])).toBeUndefined();
    // The Dispatcher holds no problem: no family rule for it.
    expect(
      answerQuestion('ROUTING_DISPATCHER', MISSING_COMPLEXITY_BOUND, {
        constraints: [],
        problem: FAMILY_PROBLEMS['binary-search']!,
      }),
    ).toBeUndefined();
  });

  it("lets the Architect answer from the statement first, else from the recognised family's canonical template", () => {
    for (const family of ALGORITHM_FAMILIES) {
      // A statement that states its bound is answered by the rule before; here the statement names none.
      const problem = {
        ...FAMILY_PROBLEMS[family.id]!,
        statement: FAMILY_PROBLEMS[family.id]!.statement.replace(/O\([^)]*\)|logarithmic|linear time/gi, ''),
      };
      const answer = answerQuestion('ABSTRACT_ARCHITECT', MISSING_COMPLEXITY_BOUND, { constraints: [], problem });
      expect(answer, family.id).toMatchObject({
        rule: 'architect-family-bound',
        claimed_complexity: family.templates[0]!.complexity,
      });
    }
    const stated = { ...FAMILY_PROBLEMS['two-sum']!, statement: 'Find two indices. Must run in quadratic time.' };
    expect(
      answerQuestion('ABSTRACT_ARCHITECT', MISSING_COMPLEXITY_BOUND, { constraints: [], problem: stated }),
    ).toMatchObject({
      rule: 'architect-stated-bound',
      claimed_complexity: 'O(n^2)',
    });
    const unknown = { ...FAMILY_PROBLEMS['binary-search']!, function_name: 'f', statement: 'Compute f.' };
    expect(
      answerQuestion('ABSTRACT_ARCHITECT', MISSING_COMPLEXITY_BOUND, { constraints: [], problem: unknown }),
    ).toBeUndefined();
  });

  it('answers no contradiction and no question type it does not name, at any tier', () => {
    const problem = FAMILY_PROBLEMS['binary-search']!;
    for (const tier of ['ROUTING_DISPATCHER', 'ABSTRACT_ARCHITECT'] as const) {
      for (const type of ['ambiguous_request', 'something_else', null]) {
        expect(answerQuestion(tier, type, { constraints: ['O(n) time complexity required'], problem })).toBeUndefined();
      }
    }
    expect(CLARIFICATION_RULES.find((r) => r.question === 'ambiguous_request')?.tier).toBe('user');
  });

  it('makes the reviewer ask, before timing anything, when its delegation names no bound', async () => {
    let runs = 0;
    const sandbox = {
      runTests: () => Promise.reject(new Error('not used')),
      runCalls: () => {
        runs += 1;
        return Promise.reject(new Error('not used'));
      },
    };
    const result = await createReviewer(sandbox)({
      problem: FAMILY_PROBLEMS['binary-search']!,
      code: 'function search() {}',
      task_type: 'review_complexity',
      objective: 'Check the time complexity',
      constraints: ['Must handle empty arrays'],
    });
    expect(result).toMatchObject({
      status: 'needs_clarification',
      error_type: MISSING_COMPLEXITY_BOUND,
      recoverable: true,
    });
    expect(runs).toBe(0);
  });
});
