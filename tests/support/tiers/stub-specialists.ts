import type {
  FleetSpecialist,
  SpecialistRequestShape,
  SpecialistResultShape,
} from '../../../machines/tiers/task-context.ts';

/**
 * Stand-ins for the fleet's specialists, by the fleet contract (`actors/tiers/fleet/`), for the
 * core's tests until the fleet lands and where a test needs a specialist to behave a set way.
 * The stub solver "solves" by looking the answer up in the test cases it was given, so its
 * counts follow the request; `behave` overrides what a specialist answers.
 */
export type Behaviour = (request: SpecialistRequestShape) => Promise<SpecialistResultShape> | SpecialistResultShape;

export const solved = (
  request: SpecialistRequestShape,
  extra: Partial<SpecialistResultShape> = {},
): SpecialistResultShape => {
  const n = request.problem.test_cases.length;
  return {
    status: 'success',
    summary: `Implemented ${request.problem.function_name}. ${n}/${n} tests passed.`,
    confidence: 0.9,
    artifacts: [
      {
        artifact_type: 'code',
        content: `function ${request.problem.function_name}() { /* variant ${request.variant ?? 0} */ }`,
        metadata: { language: 'javascript', family: 'binary-search', template: 'iterative' },
      },
      { artifact_type: 'test_result', content: `${n}/${n} tests passed`, metadata: { passed: n, failed: 0 } },
    ],
    log: ['stub solve'],
    ...extra,
  };
};

const checked =
  (what: string) =>
  (request: SpecialistRequestShape): SpecialistResultShape => ({
    status: 'success',
    summary: `${what} checked ${request.code ? 'the code' : 'nothing'}.`,
    confidence: 0.8,
    artifacts: [{ artifact_type: 'analysis', content: `${what}: ok`, metadata: {} }],
    log: [what],
  });

/** The three specialists of the contract, each overridable. */
export function stubSpecialists(behave: Partial<Record<string, Behaviour>> = {}): Record<string, FleetSpecialist> {
  const of = (name: string, taskTypes: string[], fallback: Behaviour): FleetSpecialist => ({
    taskTypes,
    run: async (request) => (behave[name] ?? fallback)(request),
  });
  return {
    'js-solver': of('js-solver', ['execute_code'], (r) => solved(r)),
    'test-designer': of('test-designer', ['design_tests'], checked('test-designer')),
    reviewer: of('reviewer', ['review_complexity'], checked('reviewer')),
  };
}
