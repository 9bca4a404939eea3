import { jsonEqual } from './json-equal.ts';
import { type SandboxLimits, type SandboxVerdict, runCalls } from './run-calls.ts';

/** One test case's outcome; `error` is what the call threw, or why it did not run. */
export interface TestCaseResult {
  index: number;
  passed: boolean;
  actual?: unknown;
  error?: string;
  durationMs: number;
}

/**
 * A test run: the run's verdict and, per case, whether the result equals `expected`. Cases after
 * a stop (timeout, forbidden, ...) did not run and count as failed; `passed + failed === total`.
 */
export interface TestRunReport {
  verdict: SandboxVerdict;
  detail?: string;
  passed: number;
  failed: number;
  total: number;
  cases: TestCaseResult[];
  durationMs: number;
}

export interface RunTestsInput {
  code: string;
  functionName: string;
  testCases: { input: unknown[]; expected: unknown }[];
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

/**
 * `runCalls` over the test inputs, each result compared with `expected` by structural (JSON)
 * equality (`jsonEqual`: key order ignored, -0 equals 0, NaN equals null).
 *
 * @example
 * const report = await runTests({
 *   code: 'function search(nums, target) { return nums.indexOf(target); }',
 *   functionName: 'search',
 *   testCases: [{ input: [[-1, 0, 3, 5], 3], expected: 2 }],
 * });
 * // { verdict: 'ok', passed: 1, failed: 0, total: 1, cases: [...], durationMs: 70 }
 */
export async function runTests(input: RunTestsInput): Promise<TestRunReport> {
  const report = await runCalls({
    code: input.code,
    functionName: input.functionName,
    calls: input.testCases.map((testCase) => testCase.input),
    ...(input.limits ? { limits: input.limits } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const notRun = `not run: the run ended ${report.verdict}${report.detail ? ` (${report.detail})` : ''}`;
  const cases = input.testCases.map((testCase, index): TestCaseResult => {
    const result = report.results[index];
    if (result === undefined) return { index, passed: false, error: notRun, durationMs: 0 };
    if (!result.ok) return { index, passed: false, error: result.error ?? 'it failed', durationMs: result.durationMs };
    const passed = jsonEqual(result.value, testCase.expected);
    return { index, passed, ...('value' in result ? { actual: result.value } : {}), durationMs: result.durationMs };
  });
  const passed = cases.filter((testCase) => testCase.passed).length;
  return {
    verdict: report.verdict,
    ...(report.detail === undefined ? {} : { detail: report.detail }),
    passed,
    failed: cases.length - passed,
    total: cases.length,
    cases,
    durationMs: report.durationMs,
  };
}
