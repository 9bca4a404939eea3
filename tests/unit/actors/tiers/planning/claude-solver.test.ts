import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeSolver, type ClaudeSolverResult } from '../../../../../actors/tiers/planning/claude-solver.ts';
import { SolutionAnswerSchema } from '../../../../../actors/tiers/planning/solver-prompt.ts';
import type { SpecialistRequest } from '../../../../../actors/tiers/fleet/specialist-result.ts';
import { runTests, type RunTestsInput } from '../../../../../actors/tiers/sandbox/run-tests.ts';
import { startFakeClaude, submit, type FakeClaude } from '../../../../support/models/fake-claude.ts';
import { BINARY_SEARCH } from '../../../../support/tiers/planning-problems.ts';

let claude: FakeClaude;
const sandboxRuns: RunTestsInput[] = [];
beforeAll(async () => {
  claude = await startFakeClaude();
});
afterAll(() => claude.server.close());
beforeEach(() => {
  claude.server.requests.length = 0;
  claude.server.violations.length = 0;
  sandboxRuns.length = 0;
});

const CORRECT = `function search(nums, target) {
  let lo = 0, hi = nums.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (nums[mid] === target) return mid;
    if (nums[mid] < target) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}`;
/** Wrong on the empty array only (returns undefined), right elsewhere. */
const WRONG_ON_EMPTY =
  'function search(nums, target) { if (nums.length === 0) return undefined; return nums.indexOf(target); }';

const solve = (problem = BINARY_SEARCH, signal?: AbortSignal) =>
  claudeSolver({
    ...claude.access,
    limits: { timeoutMs: 1_000 },
    runTests: (input) => {
      sandboxRuns.push(input);
      return runTests(input);
    },
  })({
    problem,
    task_type: 'execute_code',
    objective: 'Write search',
    constraints: ['Must handle empty arrays'],
    ...(signal ? { signal } : {}),
  } satisfies SpecialistRequest) as Promise<ClaudeSolverResult>;
const solution = (code: string) => submit({ code, complexity: 'O(log n)', approach: 'binary search' });

describe('claudeSolver', () => {
  it('forces submit_solution, runs the code in the sandbox, and reports the real counts and the tokens', async () => {
    claude.answer(solution(CORRECT));
    const result = await solve();
    const [body] = claude.bodies();
    expect(body!['tool_choice']).toEqual({ type: 'tool', name: 'submit_solution' });
    expect(body!['tools'][0].input_schema).toEqual(z.toJSONSchema(SolutionAnswerSchema, { io: 'input' }));
    expect(claude.server.violations).toEqual([]);
    expect(sandboxRuns).toHaveLength(1);
    expect(result.status).toBe('success');
    expect(result.artifacts.map((a) => [a.artifact_type, a.content])).toEqual([
      ['code', CORRECT],
      ['test_result', '4/4 tests passed'],
    ]);
    expect(result.artifacts[0]!.metadata).toMatchObject({
      language: 'javascript',
      complexity: 'O(log n)',
      author: 'claude',
    });
    expect(result.confidence).toBeCloseTo(5 / 6, 3);
    expect(result.tokens.input).toBeGreaterThan(0);
    expect(result.tokens.output).toBeGreaterThan(0);
  });

  it('retries a failing answer once with the failures in the prompt, and reports the better attempt', async () => {
    claude.answer((body, index) => solution(index === 0 ? WRONG_ON_EMPTY : CORRECT)(body));
    const result = await solve();
    const retry = claude.bodies()[1]!['messages'][0].content as string;
    expect(retry).toMatch(/passed 3\/4 test cases/);
    expect(retry).toContain('case 2: input [[],5], expected -1');
    expect(retry).toContain(WRONG_ON_EMPTY);
    expect(result.status).toBe('success');
    expect(result.log).toEqual([expect.stringMatching(/^attempt 1: 3\/4/), expect.stringMatching(/^attempt 2: 4\/4/)]);
  });

  it('stops after the retry: partial with the sandbox counts, tests_failed, recoverable', async () => {
    claude.answer(solution(WRONG_ON_EMPTY));
    const result = await solve();
    expect(claude.bodies()).toHaveLength(2);
    expect(result).toMatchObject({ status: 'partial', error_type: 'tests_failed', recoverable: true });
    expect(result.artifacts[1]).toMatchObject({ content: '3/4 tests passed', metadata: { passed: 3, failed: 1 } });
  });

  it('contains a hostile answer: the sandbox verdict becomes the error', async () => {
    claude.answer(solution('function search() { while (true) {} }'));
    const result = await solve();
    expect(result).toMatchObject({ status: 'failed', error_type: 'sandbox_timeout' });
    expect(result.artifacts[1]!.metadata).toMatchObject({ passed: 0, failed: 4 });
  });

  it('refuses a schema-invalid answer as a failed result, never a throw', async () => {
    claude.answer(submit({ approach: 'none' }));
    const result = await solve();
    expect(result).toMatchObject({ status: 'failed', error_type: 'invalid_model_answer', recoverable: true });
    expect(result.error_detail).toMatch(/Give exactly one of code .* and question/);
    expect(result.tokens.output).toBeGreaterThan(0);
    expect(sandboxRuns).toHaveLength(0);
  });

  it('asks instead of guessing: a question is needs_clarification with ambiguous_request', async () => {
    claude.answer(submit({ question: 'Should [1,1] with target 1 return 0 or 1?', approach: 'ask' }));
    const result = await solve();
    expect(result).toMatchObject({
      status: 'needs_clarification',
      error_type: 'ambiguous_request',
      error_detail: 'Should [1,1] with target 1 return 0 or 1?',
    });
  });

  it('fails a non-JavaScript problem with unsupported_language without calling Claude', async () => {
    const result = await solve({ ...BINARY_SEARCH, language: 'python' });
    expect(result).toMatchObject({ status: 'failed', error_type: 'unsupported_language', recoverable: false });
    expect(claude.bodies()).toHaveLength(0);
  });

  it('turns an API failure into a failed result naming it', async () => {
    claude.answer(() => ({ error: { status: 500, message: 'boom' } }));
    const result = await solve();
    expect(result).toMatchObject({ status: 'failed', error_type: 'model_server_error', recoverable: true });
  });
  it('stops at once when cancelled: no call, error_type cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await solve(BINARY_SEARCH, controller.signal);
    expect(result).toMatchObject({ status: 'failed', error_type: 'cancelled', recoverable: false });
    expect(claude.bodies()).toHaveLength(0);
  });

  it('asks about contradictory test cases without calling Claude', async () => {
    const twice = { input: [[1, 1], 1], expected: 0 };
    const result = await solve({ ...BINARY_SEARCH, test_cases: [twice, { ...twice, expected: 1 }] });
    expect(result).toMatchObject({ status: 'needs_clarification', error_type: 'ambiguous_request' });
    expect(result.error_detail).toMatch(/Test cases 0 and 1 give the same input/);
    expect(claude.bodies()).toHaveLength(0);
  });

  it('keeps the first attempt when the retry is refused, counting the tokens of both calls', async () => {
    claude.answer((body, index) => (index === 0 ? solution(WRONG_ON_EMPTY)(body) : submit({ approach: 'none' })(body)));
    const result = await solve();
    expect(claude.bodies()).toHaveLength(2);
    expect(result).toMatchObject({ status: 'partial', error_type: 'tests_failed' });
    expect(result.artifacts[0]!.content).toBe(WRONG_ON_EMPTY);
    expect(result.log.at(-1)).toMatch(/^retry got no usable answer: .*submit_solution answer was refused/);
    const usage = claude.server.requests.map((r) => r.usage!);
    expect(result.tokens.input).toBe(
      usage.reduce((sum, u) => sum + u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens, 0),
    );
  });
});
