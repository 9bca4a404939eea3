import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routineFor, routineKey, type RoutineOutcome } from '../../../../../actors/tiers/monitor/routines.ts';
import { OutcomeStatusSchema } from '../../../../../protocol/runtime/outcome-status.ts';

const solved = (family: string, template: string, over: Partial<RoutineOutcome> = {}): RoutineOutcome => ({
  status: 'success',
  specialist: 'js-solver',
  task_type: 'execute_code',
  confidence: 0.95,
  artifacts: [
    { artifact_type: 'code', metadata: { family, template, language: 'javascript' } },
    { artifact_type: 'test_result', metadata: { passed: 4, failed: 0 } },
  ],
  ...over,
});

describe('routineFor', () => {
  it("caches a success's family, template and specialist under history/routines/{family}", () => {
    expect(routineFor(solved('Binary Search', 'iterative'))).toEqual({
      key: 'history/routines/binary-search',
      name: 'binary-search',
      routine: {
        family: 'Binary Search',
        template: 'iterative',
        specialist: 'js-solver',
        task_type: 'execute_code',
        successes: 1,
        confidence: 0.95,
      },
    });
    expect(routineKey('Binary Search')).toBe('history/routines/binary-search');
  });

  it('counts repeated successes of the same pattern, and starts again when the template changes', () => {
    const first = routineFor(solved('two-sum', 'hash-map'))!.routine;
    const second = routineFor(solved('two-sum', 'hash-map', { confidence: 0.8 }), first)!.routine;
    expect(second).toMatchObject({ successes: 2, confidence: 0.8 });
    expect(routineFor(solved('two-sum', 'sort-two-pointers'), second)!.routine.successes).toBe(1);
  });

  it('learns nothing from a non-success, or from code without a family and a template', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OutcomeStatusSchema.options),
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.string(), { nil: undefined }),
        (status, family, template) => {
          const outcome = solved(family as string, template as string, { status });
          const learned = routineFor(outcome);
          const usable =
            status === 'success' &&
            typeof family === 'string' &&
            family.trim() !== '' &&
            /[a-z0-9]/i.test(family) &&
            typeof template === 'string' &&
            template.trim() !== '';
          expect(learned !== null).toBe(usable);
          if (learned) expect(learned.key).toMatch(/^history\/routines\/[a-z0-9]+(-[a-z0-9]+)*$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
