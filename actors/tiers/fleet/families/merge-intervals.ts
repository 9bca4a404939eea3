import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, valueRange, wantsDuplicates, wantsEmpty, wantsNegatives } from '../edge-case-kit.ts';
import { isIntervalList, preview } from '../value-shapes.ts';

type Interval = [number, number];

const PROPERTY =
  'result is sorted, no two of its intervals overlap or touch, and it covers exactly the union of the input intervals';

/** The definition: sorted, separated, every input inside one output, every output covered without gaps. */
function mergeProblem(intervals: Interval[], actual: unknown): string | null {
  if (!isIntervalList(actual)) return `returned ${preview(actual)}, not a list of [start, end] pairs`;
  for (let k = 1; k < actual.length; k++) {
    if (actual[k]![0] <= actual[k - 1]![1])
      return `returned ${preview(actual)}: ${k - 1} and ${k} overlap, touch or are unsorted`;
  }
  for (const [s, e] of intervals) {
    if (!actual.some(([a, b]) => a <= s && e <= b)) return `input [${s}, ${e}] is not inside any returned interval`;
  }
  for (const [a, b] of actual) {
    const inside = intervals.filter(([s, e]) => a <= s && e <= b).sort((x, y) => x[0] - y[0]);
    if (inside[0]?.[0] !== a) return `returned [${a}, ${b}] but no input interval starts at ${a}`;
    let reach = a;
    for (const [s, e] of inside) {
      if (s > reach) return `returned [${a}, ${b}] but the inputs leave a gap between ${reach} and ${s}`;
      reach = Math.max(reach, e);
    }
    if (reach !== b) return `returned [${a}, ${b}] but the inputs inside it reach only ${reach}`;
  }
  return null;
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const { min, max } = valueRange(hints, { min: 0, max: 10_000 });
  const make = (name: string, kind: EdgeCase['kind'], intervals: Interval[]) =>
    oneCall(name, kind, [intervals], PROPERTY, (actual) => mergeProblem(intervals, actual));
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, true)) cases.push(make('no intervals', 'empty', []));
  cases.push(make('one interval', 'single', [[1, 4]]));
  cases.push(make('point interval', 'single', [[3, 3]]));
  cases.push(
    make('touching intervals', 'bounds', [
      [1, 4],
      [4, 5],
    ]),
  );
  cases.push(
    make('one inside another', 'typical', [
      [1, 10],
      [2, 3],
    ]),
  );
  cases.push(
    make('unsorted, overlapping and disjoint', 'typical', [
      [8, 10],
      [1, 3],
      [15, 18],
      [2, 6],
    ]),
  );
  cases.push(
    make('disjoint', 'not_found', [
      [5, 6],
      [1, 2],
      [3, 4],
    ]),
  );
  if (wantsDuplicates(hints))
    cases.push(
      make('the same interval twice', 'duplicates', [
        [2, 5],
        [2, 5],
      ]),
    );
  if (wantsNegatives(hints) && min < 0)
    cases.push(
      make('negative bounds', 'negatives', [
        [-5, -1],
        [-2, 3],
      ]),
    );
  if (min < max)
    cases.push(
      make('values at both bounds', 'bounds', [
        [min, min],
        [max, max],
        [min, max],
      ]),
    );
  const length = largeLength(hints, 1000);
  const many = Array.from({ length }, (_, i): Interval => [(i * 37) % length, ((i * 37) % length) + (i % 3)]);
  cases.push(make(`${length} intervals`, 'large', many));
  return cases;
}

/** Merge overlapping intervals (LeetCode 56). */
export const mergeIntervals: AlgorithmFamily = {
  id: 'merge-intervals',
  title: 'Merge intervals',
  classic: 'LeetCode 56 (Merge Intervals)',
  names: ['merge', 'mergeintervals', 'mergeoverlapping', 'mergeranges'],
  nameHints: ['merge', 'interval', 'range'],
  keywords: ['interval', 'overlap', 'merge', 'start', 'end'],
  arity: 1,
  accepts: ({ input, expected }) => isIntervalList(input[0]) && isIntervalList(expected),
  templates: [
    {
      name: 'sort-and-sweep',
      description: 'sort by start, extend the last merged interval or open a new one',
      complexity: 'O(n log n)',
      source: `function __fn__(intervals) {
  const sorted = intervals.map((pair) => [pair[0], pair[1]]).sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
`,
    },
  ],
  edgeCases,
  generate: (n, random) => {
    const intervals = Array.from({ length: n }, (_, i) => [2 * i, 2 * i + 1]);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [intervals[i], intervals[j]] = [intervals[j]!, intervals[i]!];
    }
    return [intervals];
  },
};
