import { describe, expect, it } from 'vitest';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import { PlanSchema, type Plan } from '../../../../../actors/tiers/planning/plan.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

const plan = (): Promise<Plan> => offlineArchitect.plan({ objective: 'o', problem: BINARY_SEARCH, constraints: [] });
const messages = (value: unknown) => PlanSchema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('PlanSchema', () => {
  it('refuses a dependency on a key the plan does not have', async () => {
    const p = await plan();
    p.subtasks[1]!.depends_on = ['compile'];
    expect(messages(p)).toEqual(['subtask "tests" depends on "compile", which is not a subtask of the plan']);
  });

  it('refuses a cycle, naming the subtasks on it', async () => {
    const p = await plan();
    p.subtasks[0]!.depends_on = ['review'];
    expect(messages(p)).toEqual(['the dependencies of solve, tests, review form a cycle']);
  });

  it('refuses a key used twice and an unknown strategy', async () => {
    const p = await plan();
    p.subtasks[2]!.key = 'tests';
    expect(messages(p)).toContain('subtask key "tests" is used twice; keys must be unique');
    expect(PlanSchema.safeParse({ ...(await plan()), aggregation_strategy: 'best_effort' }).success).toBe(false);
  });
});
