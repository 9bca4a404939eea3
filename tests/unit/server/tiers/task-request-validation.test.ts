import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AggregationStrategySchema } from '../../../../protocol/runtime/aggregated-outcome.ts';
import { TASK_TIMEOUT_RANGE } from '../../../../protocol/tiers/task-request.ts';
import { tiersRouteApp } from '../../../support/tiers/tiers-route-app.ts';

const json = fc.jsonValue({ maxDepth: 2 });

const validBody = fc.record(
  {
    objective: fc.string({ minLength: 1, maxLength: 40 }),
    problem: fc.record(
      {
        problem_id: fc.string({ minLength: 1, maxLength: 10 }),
        statement: fc.string({ minLength: 1, maxLength: 80 }),
        function_name: fc.stringMatching(/^[A-Za-z_$][\w$]{0,15}$/),
        language: fc.constant('javascript'),
        test_cases: fc.array(fc.record({ input: fc.array(json, { maxLength: 3 }), expected: json }), {
          minLength: 1,
          maxLength: 4,
        }),
      },
      { requiredKeys: ['statement', 'function_name', 'language', 'test_cases'] },
    ),
    constraints: fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 3 }),
    priority: fc.integer({ min: 0, max: 4 }),
    timeout_ms: fc.integer(TASK_TIMEOUT_RANGE),
    aggregation_strategy: fc.constantFrom(...AggregationStrategySchema.options),
  },
  { requiredKeys: ['objective', 'problem'] },
);

const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));

/** One field made wrong: its dotted path and an arbitrary bad value for it. */
const MUTATIONS: [string, fc.Arbitrary<unknown>][] = [
  ['objective', fc.oneof(fc.constant(''), notString)],
  ['problem.statement', fc.oneof(fc.constant(''), notString)],
  ['problem.function_name', fc.oneof(fc.stringMatching(/^[0-9 -][\w -]{0,8}$/), notString)],
  ['problem.language', fc.oneof(fc.constantFrom('python', 'JavaScript', 'js', ''), notString)],
  ['problem.test_cases', fc.oneof(fc.constant([]), notString)],
  ['problem.test_cases.0.input', fc.oneof(fc.string(), fc.integer(), fc.constant(null))],
  ['constraints', fc.oneof(fc.string(), fc.integer(), fc.constant([1]))],
  ['priority', fc.oneof(fc.integer({ min: 5 }), fc.integer({ max: -1 }), fc.constant(1.5), fc.constant('1'))],
  [
    'timeout_ms',
    fc.oneof(fc.integer({ max: TASK_TIMEOUT_RANGE.min - 1 }), fc.integer({ min: TASK_TIMEOUT_RANGE.max + 1 })),
  ],
  ['aggregation_strategy', fc.oneof(fc.constantFrom('best_of', 'ALL_SUCCESS', ''), notString)],
];

function withField(body: Record<string, any>, path: string, value: unknown) {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) target = target[key];
  target[keys.at(-1)!] = value;
  return copy;
}

describe('POST /tiers/tasks validation', () => {
  it('accepts every well-formed body with 201 and hands it over unchanged', async () => {
    const { call, service } = await tiersRouteApp();
    await fc.assert(
      fc.asyncProperty(validBody, async (body) => {
        const answer = await call('ada', 'POST', '/tiers/tasks', body);
        expect(answer.status).toBe(201);
        expect(service.submitted.at(-1)).toEqual(JSON.parse(JSON.stringify(body)));
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a body with one bad field with 400 naming that field, and submits nothing', async () => {
    const { call, service } = await tiersRouteApp();
    await fc.assert(
      fc.asyncProperty(
        validBody,
        fc.constantFrom(...MUTATIONS).chain(([path, bad]) => bad.map((value) => [path, value] as const)),
        async (body, [path, value]) => {
          const answer = await call('ada', 'POST', '/tiers/tasks', withField(body, path, value));
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('validation_failed');
          const paths = answer.body.error.issues.map((issue: { path: string }) => issue.path);
          expect(paths.length).toBeGreaterThan(0);
          for (const issuePath of paths) expect(issuePath === path || issuePath.startsWith(`${path}.`)).toBe(true);
          expect(answer.body.error.message).toContain(path);
        },
      ),
      { numRuns: 300 },
    );
    expect(service.submitted).toEqual([]);
  });

  it('names an unknown field, at the top and inside the problem', async () => {
    const { call } = await tiersRouteApp();
    await fc.assert(
      fc.asyncProperty(
        validBody,
        fc.stringMatching(/^[a-z][a-z_]{2,12}$/).filter((key) => !['problem_id', 'statement'].includes(key)),
        fc.boolean(),
        async (body, key, inside) => {
          const target: Record<string, any> = inside ? body.problem : body;
          fc.pre(!(key in target));
          const answer = await call('ada', 'POST', '/tiers/tasks', withField(body, inside ? `problem.${key}` : key, 1));
          expect(answer.status).toBe(400);
          expect(answer.body.error.issues).toEqual([
            { path: inside ? 'problem' : '', message: expect.stringContaining(key) },
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
