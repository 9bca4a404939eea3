import type { TestCase } from './specialist-result.ts';

/**
 * The expected value a user's answer names (the offline rule): the whole answer when it is a
 * JSON value (`1`, `[0, 2]`, `"abc"`), else the JSON value that ends it after "is", "=",
 * "expect(ed)" or "return(s)" (`... for [1, 2, 3] and 2 the answer is 1.`). None otherwise.
 *
 * @example expectedValueOf('for [1, 2, 3] and 2 the answer is 1.') // { value: 1 }
 */
export function expectedValueOf(answer: string): { value: unknown } | undefined {
  const whole = parseJson(answer.trim());
  if (whole) return whole;
  // Greedy lead: the last keyword counts ("Return the index: ... the answer is 1.").
  const tail = /^.*(?:\bis|=|\bexpected?|\breturns?)\s*:?\s*(.+?)\s*[.!]?\s*$/is.exec(answer.trim());
  return tail ? parseJson(tail[1]!) : undefined;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The test cases once the user's answer is applied: for every input whose cases contradict each
 * other, the cases whose expected value equals the answer's value (compared as JSON) are kept and
 * the others dropped. An input none of whose cases agrees with the answer, or an answer that names
 * no value, keeps its cases: the contradiction stands and the question comes back, which the
 * Monitor ends rather than asking twice.
 *
 * @example applyAnswer([{ input: [[1, 2, 3], 2], expected: 1 }, { input: [[1, 2, 3], 2], expected: 2 }], 'the answer is 1')
 * // [{ input: [[1, 2, 3], 2], expected: 1 }]
 */
export function applyAnswer(testCases: readonly TestCase[], answer: string): TestCase[] {
  const named = expectedValueOf(answer);
  if (!named) return [...testCases];
  const wanted = JSON.stringify(named.value);
  const byInput = new Map<string, Set<string>>();
  for (const testCase of testCases) {
    const key = JSON.stringify(testCase.input);
    byInput.set(key, (byInput.get(key) ?? new Set()).add(JSON.stringify(testCase.expected)));
  }
  return testCases.filter((testCase) => {
    const expecteds = byInput.get(JSON.stringify(testCase.input))!;
    const contradictory = expecteds.size > 1;
    return !contradictory || !expecteds.has(wanted) || JSON.stringify(testCase.expected) === wanted;
  });
}
