import { z } from 'zod';

/** One test case of a problem: the function's arguments and the value it must return. */
export const TestCaseSchema = z.strictObject({ input: z.array(z.unknown()), expected: z.unknown() });
export type TestCase = z.infer<typeof TestCaseSchema>;

/**
 * A programming problem as a user submits it (spec 002, issue 12): a statement, the function to
 * write and its test cases. HTTP accepts only `javascript`; delegations may name another language.
 *
 * @example
 * ProblemSchema.parse({ statement: 'Find target in sorted nums.', function_name: 'search',
 *   language: 'javascript', test_cases: [{ input: [[1, 3, 5], 3], expected: 1 }] });
 */
export const ProblemSchema = z.strictObject({
  problem_id: z.string().min(1).optional(),
  statement: z.string().min(1),
  function_name: z.string().regex(/^[A-Za-z_$][\w$]*$/),
  language: z.string().min(1),
  test_cases: z.array(TestCaseSchema).min(1).max(200),
});
export type Problem = z.infer<typeof ProblemSchema>;
