import { z } from 'zod';
import type { TestRunReport } from '../sandbox/run-tests.ts';
import type { SpecialistRequest } from '../fleet/specialist-result.ts';

/** The most test cases shown to the model, and failures quoted back on the retry. */
export const SHOWN_TESTS = 20;
export const QUOTED_FAILURES = 5;

/**
 * `submit_solution`'s input: the code (a plain JavaScript function declaration) with its claimed
 * complexity, or, for a problem that is ambiguous (test cases that contradict each other), only
 * the question to ask, never a guess.
 */
export const SolutionAnswerSchema = z
  .strictObject({
    code: z.string().min(1).optional(),
    complexity: z.string().min(1).optional(),
    approach: z.string().min(1),
    question: z.string().min(1).optional(),
  })
  .refine((answer) => (answer.code === undefined) !== (answer.question === undefined), {
    message: 'Give exactly one of code (a solution) and question (the problem is ambiguous).',
    path: ['code'],
  });
export type SolutionAnswer = z.infer<typeof SolutionAnswerSchema>;

export const SOLVER_SYSTEM = [
  'You are a js-solver specialist of a tiered agent system (spec 002). Write one plain JavaScript function declaration',
  'with the requested name that passes the test cases: no require, import, I/O, timers or globals; it runs in a sandbox',
  'without Node. Give its time complexity (e.g. "O(log n)") and your approach in one sentence.',
  'If the test cases contradict each other (one input, two expected values), do not guess: give only a question.',
  'Answer only by calling submit_solution.',
].join(' ');

/** The first prompt: the problem, the constraints and (up to {@link SHOWN_TESTS}) the test cases. */
export function solverPrompt(request: SpecialistRequest): string {
  const { problem } = request;
  return JSON.stringify({
    objective: request.objective,
    statement: problem.statement,
    function_name: problem.function_name,
    constraints: request.constraints,
    test_cases: problem.test_cases.slice(0, SHOWN_TESTS),
    test_case_count: problem.test_cases.length,
  });
}

const brief = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/** The retry's prompt: the first one, the code that failed, and what failed (verdict and cases). */
export function retryPrompt(request: SpecialistRequest, code: string, report: TestRunReport): string {
  const failures = report.cases
    .filter((c) => !c.passed)
    .slice(0, QUOTED_FAILURES)
    .map((c) => {
      const test = request.problem.test_cases[c.index];
      const got = c.error === undefined ? `returned ${brief(c.actual)}` : `failed: ${c.error}`;
      return `case ${c.index}: input ${brief(test?.input)}, expected ${brief(test?.expected)}, ${got}`;
    });
  return [
    solverPrompt(request),
    `Your previous solution passed ${report.passed}/${report.total} test cases (sandbox verdict ${report.verdict}${report.detail ? `: ${report.detail}` : ''}).`,
    `It was:\n${code}`,
    `Failures:\n${failures.join('\n')}`,
    'Fix it and call submit_solution again.',
  ].join('\n\n');
}
