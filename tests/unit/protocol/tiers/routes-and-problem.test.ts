import { describe, expect, it } from 'vitest';
import { ProblemSchema } from '../../../../protocol/tiers/problem.ts';
import { TIER_ORDER, TIERS_ROUTES, tierAbove, tierBelow } from '../../../../protocol/tiers/routes.ts';

describe('TIERS_ROUTES', () => {
  const has = (from: string, to: string, kind: string) =>
    TIERS_ROUTES.some((r) => r.from === from && r.to === to && r.data_type === kind);

  it('delegates and cancels one tier down, reports one tier up, and has no other edge', () => {
    for (const [i, upper] of TIER_ORDER.entries()) {
      for (const [j, lower] of TIER_ORDER.entries()) {
        const down = j === i + 1;
        expect(has(upper, lower, 'delegation'), `${upper} -> ${lower}`).toBe(down);
        expect(has(upper, lower, 'cancellation'), `${upper} -> ${lower}`).toBe(down);
        expect(has(lower, upper, 'outcome'), `${lower} -> ${upper}`).toBe(down);
      }
    }
    expect(TIERS_ROUTES).toHaveLength(9);
  });

  it('names the tier above and below', () => {
    expect(tierBelow('PROGRESS_MONITOR')).toBe('ABSTRACT_ARCHITECT');
    expect(tierBelow('SPECIALIZED_FLEET')).toBeUndefined();
    expect(tierAbove('SPECIALIZED_FLEET')).toBe('ROUTING_DISPATCHER');
    expect(tierAbove('PROGRESS_MONITOR')).toBeUndefined();
  });
});

describe('ProblemSchema', () => {
  const problem = {
    statement: 'Return the index of target in sorted nums, or -1.',
    function_name: 'search',
    language: 'javascript',
    test_cases: [{ input: [[-1, 0, 3, 5], 5], expected: 3 }],
  };

  it('accepts a problem with or without problem_id', () => {
    expect(ProblemSchema.parse(problem)).toEqual(problem);
    expect(ProblemSchema.parse({ ...problem, problem_id: 'leetcode-704' }).problem_id).toBe('leetcode-704');
  });

  it('refuses a bad function name, no test cases, a test case without input, and unknown fields', () => {
    const paths = (value: unknown) => ProblemSchema.safeParse(value).error?.issues.map((i) => i.path.join('.'));
    expect(paths({ ...problem, function_name: '1abc' })).toEqual(['function_name']);
    expect(paths({ ...problem, test_cases: [] })).toEqual(['test_cases']);
    expect(paths({ ...problem, test_cases: [{ expected: 1 }] })).toEqual(['test_cases.0.input']);
    expect(paths({ ...problem, extra: 1 })).toEqual(['']);
  });
});
