import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnassignableSubtaskError, type SpecialistStatus } from '../../../../../actors/tiers/planning/dispatcher.ts';
import { offlineArchitect } from '../../../../../actors/tiers/planning/offline-architect.ts';
import { offlineDispatcher, routeSubtasks } from '../../../../../actors/tiers/planning/offline-dispatcher.ts';
import type { PlannedSubtask } from '../../../../../actors/tiers/planning/plan.ts';
import { fleetArbitrary, problemArbitrary, strategyArbitrary } from '../../../../support/tiers/planning-arbitraries.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

const specialist = (name: string, over: Partial<SpecialistStatus> = {}): SpecialistStatus => ({
  name,
  task_types: ['execute_code'],
  available: true,
  load: 0,
  accuracy: null,
  ...over,
});
const solve = (over: Partial<PlannedSubtask> = {}): PlannedSubtask => ({
  key: 'solve',
  task_type: 'execute_code',
  objective: 'Write it',
  constraints: [],
  specialist_hint: null,
  depends_on: [],
  task_data: {},
  ...over,
});
const pick = (specialists: SpecialistStatus[], priority = 1, subtask = solve()) =>
  routeSubtasks({ subtasks: [subtask], specialists, priority })[0]!.specialist;

describe('offlineDispatcher', () => {
  it('routes the default plan to the hinted specialists', async () => {
    const plan = await offlineArchitect.plan({ objective: 'o', problem: BINARY_SEARCH, constraints: [] });
    const fleet = [
      specialist('js-solver'),
      specialist('test-designer', { task_types: ['design_tests'] }),
      specialist('reviewer', { task_types: ['review_complexity'] }),
    ];
    const { assignments } = await offlineDispatcher.route({ subtasks: plan.subtasks, specialists: fleet, priority: 1 });
    expect(assignments.map((a) => [a.key, a.specialist])).toEqual([
      ['solve', 'js-solver'],
      ['tests', 'test-designer'],
      ['review', 'reviewer'],
    ]);
    expect(assignments[0]!.reason).toMatch(/^hint/);
  });

  it('takes the hint over load and accuracy, but only when it is available', () => {
    const fleet = [specialist('a', { load: 3, accuracy: 0.1 }), specialist('b', { accuracy: 0.9 })];
    expect(pick(fleet, 1, solve({ specialist_hint: 'a' }))).toBe('a');
    fleet[0]!.available = false;
    expect(pick(fleet, 1, solve({ specialist_hint: 'a' }))).toBe('b');
  });

  it('prefers the lowest load, then by priority known or unknown accuracy, then the best accuracy', () => {
    expect(pick([specialist('a', { load: 2, accuracy: 1 }), specialist('b', { load: 1, accuracy: 0 })])).toBe('b');
    const mixed = [specialist('proven', { accuracy: 0.5 }), specialist('new')];
    expect(pick(mixed, 0)).toBe('proven');
    expect(pick(mixed, 2)).toBe('proven');
    expect(pick(mixed, 3)).toBe('new');
    expect(pick(mixed, 4)).toBe('new');
    expect(pick([specialist('a', { accuracy: 0.6 }), specialist('b', { accuracy: 0.8 })])).toBe('b');
  });

  it("reads the accuracy of the subtask's task type before the overall one", () => {
    const fleet = [
      specialist('a', { accuracy: 0.9, accuracy_by_task_type: { execute_code: 0.2 } }),
      specialist('b', { accuracy: 0.5 }),
    ];
    expect(pick(fleet)).toBe('b');
  });

  it('spreads redundant attempts by counting its own assignments as load', () => {
    const attempts = [0, 1, 2].map((v) => solve({ key: `solve-${v}` }));
    const assignments = routeSubtasks({
      subtasks: attempts,
      specialists: [specialist('a'), specialist('b')],
      priority: 1,
    });
    expect(assignments.map((a) => a.specialist)).toEqual(['a', 'b', 'a']);
  });

  it('re-routes around excluded specialists', () => {
    const fleet = [specialist('a', { accuracy: 1 }), specialist('b', { accuracy: 0 })];
    const [assignment] = routeSubtasks({
      subtasks: [solve()],
      specialists: fleet,
      priority: 1,
      exclude: { solve: ['a'] },
    });
    expect(assignment!.specialist).toBe('b');
  });

  it('names the subtask it cannot assign, and why', async () => {
    const route = (specialists: SpecialistStatus[], exclude?: Record<string, string[]>) =>
      offlineDispatcher.route({
        subtasks: [solve({ key: 'solve-2' })],
        specialists,
        priority: 1,
        ...(exclude ? { exclude } : {}),
      });
    await expect(route([specialist('t', { task_types: ['design_tests'] })])).rejects.toThrow(
      /Subtask "solve-2" \(execute_code\) cannot be assigned: no specialist handles execute_code/,
    );
    await expect(route([specialist('a')], { 'solve-2': ['a'] })).rejects.toThrow(/excluded \(a\)/);
    const error = await route([specialist('a', { available: false })]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnassignableSubtaskError);
    expect((error as UnassignableSubtaskError).code).toBe('unassignable_subtask');
    expect((error as UnassignableSubtaskError).key).toBe('solve-2');
  });

  it('assigns every subtask to an available, able, non-excluded specialist, whatever the order of the fleet', async () => {
    await fc.assert(
      fc.asyncProperty(
        problemArbitrary,
        strategyArbitrary,
        fleetArbitrary,
        fc.nat({ max: 4 }),
        fc.array(fc.constantFrom<string>('js-solver', 'claude-solver', 'spare-a'), { maxLength: 2 }),
        async (problem, strategy, fleet, priority, excluded) => {
          const plan = await offlineArchitect.plan({
            objective: 'o',
            problem,
            constraints: [],
            aggregation_strategy: strategy,
          });
          const exclude = Object.fromEntries(plan.subtasks.map((s) => [s.key, excluded]));
          const input = { subtasks: plan.subtasks, specialists: fleet, priority, exclude };
          let assignments;
          try {
            assignments = routeSubtasks(input);
          } catch (error) {
            expect(error).toBeInstanceOf(UnassignableSubtaskError);
            const key = (error as UnassignableSubtaskError).key;
            const subtask = plan.subtasks.find((s) => s.key === key)!;
            const usable = fleet.filter(
              (s) => s.available && s.task_types.includes(subtask.task_type) && !excluded.includes(s.name),
            );
            expect(usable).toEqual([]);
            return;
          }
          expect(assignments.map((a) => a.key)).toEqual(plan.subtasks.map((s) => s.key));
          for (const [i, assignment] of assignments.entries()) {
            const chosen = fleet.find((s) => s.name === assignment.specialist)!;
            expect(chosen.available).toBe(true);
            expect(chosen.task_types).toContain(plan.subtasks[i]!.task_type);
            expect(excluded).not.toContain(chosen.name);
          }
          expect(routeSubtasks({ ...input, specialists: [...fleet].reverse() })).toEqual(assignments);
        },
      ),
      { numRuns: 300 },
    );
  });
});
