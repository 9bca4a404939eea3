import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { oneCall, valueRange } from '../edge-case-kit.ts';
import { isInt, preview } from '../value-shapes.ts';

/** Above this n the count passes 2^53 and floating-point answers stop being exact. */
const EXACT_N = 75;

const positiveInt = (value: unknown): string | null =>
  isInt(value) && value >= 1 ? null : `returned ${preview(value)}, not a positive integer count`;

/** ways(n) = ways(n-1) + ways(n-2): the last step is either 1 or 2 stairs. */
function recurrenceCase(n: number, kind: EdgeCase['kind']): EdgeCase {
  return {
    name: `n = ${n} (recurrence)`,
    kind,
    calls: [[n], [n - 1], [n - 2]],
    property: 'ways(n) === ways(n - 1) + ways(n - 2)',
    check: ([now, one, two]) =>
      positiveInt(now) ??
      positiveInt(one) ??
      positiveInt(two) ??
      ((now as number) === (one as number) + (two as number)
        ? null
        : `ways(${n}) = ${now} but ways(${n - 1}) + ways(${n - 2}) = ${one} + ${two}`),
  };
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { max } = valueRange(hints, { min: 1, max: 45 });
  const top = Math.min(Math.max(max, 3), EXACT_N);
  const base = (n: number, ways: number, why: string) =>
    oneCall(`n = ${n}`, n === 1 ? 'single' : 'bounds', [n], `ways(${n}) === ${ways}: ${why}`, (actual) =>
      actual === ways ? null : `returned ${preview(actual)}; ${why}`,
    );
  return [
    base(1, 1, 'one stair is climbed one way (a single 1-step)'),
    base(2, 2, 'two stairs are climbed two ways (1+1 or 2)'),
    recurrenceCase(3, 'typical'),
    recurrenceCase(Math.max(3, Math.floor(top / 2)), 'typical'),
    recurrenceCase(top, 'bounds'),
  ];
}

/** Ways to climb n stairs taking 1 or 2 at a time (LeetCode 70). */
export const climbingStairs: AlgorithmFamily = {
  id: 'climbing-stairs',
  title: 'Climbing stairs',
  classic: 'LeetCode 70 (Climbing Stairs)',
  names: ['climbstairs', 'climbingstairs', 'countways', 'stairways', 'waystoclimb'],
  nameHints: ['stair', 'climb', 'step'],
  keywords: ['stair', 'climb', 'steps', '1 or 2', 'distinct ways', 'top'],
  arity: 1,
  accepts: ({ input, expected }) => isInt(input[0]) && input[0] >= 0 && isInt(expected) && expected >= 1,
  templates: [
    {
      name: 'iterative',
      description: 'two running Fibonacci terms',
      complexity: 'O(n)',
      source: `function __fn__(n) {
  let a = 1;
  let b = 1;
  for (let i = 2; i <= n; i++) [a, b] = [b, a + b];
  return b;
}
`,
    },
    {
      name: 'matrix-power',
      description: '[[1,1],[1,0]]^n by repeated squaring',
      complexity: 'O(log n)',
      source: `function __fn__(n) {
  const mul = (x, y) => [
    x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],
    x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3],
  ];
  let result = [1, 0, 0, 1];
  let base = [1, 1, 1, 0];
  for (let k = n; k > 0; k >>= 1) {
    if (k & 1) result = mul(result, base);
    base = mul(base, base);
  }
  return result[0];
}
`,
    },
  ],
  edgeCases,
  generate: (n) => [n],
};
