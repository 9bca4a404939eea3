import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARCHITECT_RULES, REDUNDANT_SOLVES } from '../../../../../actors/tiers/planning/architect-rules.ts';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import { PlanSchema, RACING_STRATEGIES, type Plan } from '../../../../../actors/tiers/planning/plan.ts';
import { problemArbitrary, strategyArbitrary } from '../../../../support/tiers/planning-arbitraries.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

const objective = 'Implement binary search with edge case handling';

describe('offlineArchitect', () => {
  it('plans solve, then tests and review after it, all_success, with the derived constraints', async () => {
    const plan = await offlineArchitect.plan({ objective, problem: BINARY_SEARCH, constraints: [] });
    expect(plan.aggregation_strategy).toBe('all_success');
    expect(plan.objective).toBe(objective);
    expect(plan.constraints).toContain('Must handle empty arrays');
    expect(plan.constraints).toContain('O(log n) time complexity required');
    expect(plan.subtasks.map((s) => [s.key, s.task_type, s.specialist_hint, s.depends_on])).toEqual([
      ['solve', 'execute_code', 'js-solver', []],
      ['tests', 'design_tests', 'test-designer', ['solve']],
      ['review', 'review_complexity', 'reviewer', ['solve']],
    ]);
    const review = plan.subtasks.find((s) => s.key === 'review')!;
    expect(review.task_data['claimed_complexity']).toBe('O(log n)');
    expect(review.constraints).toEqual(['O(log n) time complexity required']);
    expect(plan.subtasks.find((s) => s.key === 'tests')!.constraints).toContain('Must handle empty arrays');
    expect(plan.rationale).toMatch(/empty-input/);
    expect(PlanSchema.safeParse(plan).success).toBe(true);
  });

  it.each([...RACING_STRATEGIES])('plans three parallel solve attempts for %s', async (strategy) => {
    const plan = await offlineArchitect.plan({
      objective,
      problem: BINARY_SEARCH,
      constraints: [],
      aggregation_strategy: strategy,
    });
    expect(plan.aggregation_strategy).toBe(strategy);
    expect(plan.subtasks).toHaveLength(REDUNDANT_SOLVES);
    expect(plan.subtasks.map((s) => [s.task_type, s.depends_on, s.task_data['variant']])).toEqual([
      ['execute_code', [], 0],
      ['execute_code', [], 1],
      ['execute_code', [], 2],
    ]);
  });

  it('revises a failed solve into three redundant attempts under any_success', async () => {
    const previous = await offlineArchitect.plan({ objective, problem: BINARY_SEARCH, constraints: [] });
    const revised = await offlineArchitect.plan({
      objective,
      problem: BINARY_SEARCH,
      constraints: [],
      revision: { previous, aggregate_summary: '1/3 subtasks completed', failed_keys: ['solve', 'tests'] },
    });
    expect(revised.aggregation_strategy).toBe('any_success');
    expect(revised.subtasks.map((s) => s.key)).toEqual(['solve-0', 'solve-1', 'solve-2']);
    expect(revised.constraints).toEqual(previous.constraints);
    expect(revised.rationale).toMatch(/revise-solve/);
  });

  it('revises failed verification subtasks away, keeping the solve and the strategy', async () => {
    const previous = await offlineArchitect.plan({ objective, problem: BINARY_SEARCH, constraints: [] });
    const revised = await offlineArchitect.plan({
      objective,
      problem: BINARY_SEARCH,
      constraints: [],
      revision: { previous, aggregate_summary: '1/3 subtasks completed', failed_keys: ['tests', 'review'] },
    });
    expect(revised.aggregation_strategy).toBe('all_success');
    expect(revised.subtasks.map((s) => s.key)).toEqual(['solve']);
    expect(revised.rationale).toMatch(/revise-optional/);
  });

  it('documents every rule it applies in the exported table', () => {
    const ids = ARCHITECT_RULES.map((r) => r.id);
    for (const id of [
      'strategy',
      'solve',
      'redundant-solves',
      'revise-solve',
      'revise-optional',
      'constraint:empty-input',
    ])
      expect(ids).toContain(id);
    for (const rule of ARCHITECT_RULES) expect(rule.when.length * rule.then.length).toBeGreaterThan(0);
  });

  it('always gives a schema-valid DAG, the same for the same input, keeping the user constraints first', async () => {
    await fc.assert(
      fc.asyncProperty(
        problemArbitrary,
        fc.option(strategyArbitrary, { nil: undefined }),
        fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 3 }),
        async (problem, strategy, constraints) => {
          const input = { objective, problem, constraints, ...(strategy ? { aggregation_strategy: strategy } : {}) };
          const plan: Plan = await offlineArchitect.plan(input);
          expect(PlanSchema.safeParse(plan).error).toBeUndefined();
          expect(plan.aggregation_strategy).toBe(strategy ?? 'all_success');
          expect(plan.constraints.slice(0, constraints.length)).toEqual(constraints);
          expect(await offlineArchitect.plan(input)).toEqual(plan);
          const solves = plan.subtasks.filter((s) => s.task_type === 'execute_code');
          expect(solves).toHaveLength(RACING_STRATEGIES.has(plan.aggregation_strategy) ? REDUNDANT_SOLVES : 1);
          const revised = await offlineArchitect.plan({
            ...input,
            revision: { previous: plan, aggregate_summary: 'partial', failed_keys: [plan.subtasks[0]!.key] },
          });
          expect(PlanSchema.safeParse(revised).error).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });
});
