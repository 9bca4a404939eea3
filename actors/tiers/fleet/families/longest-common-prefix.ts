import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, wantsDuplicates, wantsEmpty } from '../edge-case-kit.ts';
import { isString, isStringArray, preview } from '../value-shapes.ts';

const PROPERTY =
  'result is a prefix of every string, and it is the longest: it ends a string or the strings differ right after it';

function prefixProblem(strs: string[], actual: unknown): string | null {
  if (!isString(actual)) return `returned ${preview(actual)}, not a string`;
  const outside = strs.find((s) => !s.startsWith(actual));
  if (outside !== undefined) return `returned ${preview(actual)}, not a prefix of ${preview(outside)}`;
  if (strs.length === 0) return actual === '' ? null : `returned ${preview(actual)} for no strings`;
  const next = strs.map((s) => s[actual.length]);
  const longer = next.every((c) => c !== undefined && c === next[0]);
  return longer ? `returned ${preview(actual)}, but every string goes on with ${preview(next[0])}` : null;
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const make = (name: string, kind: EdgeCase['kind'], strs: string[]) =>
    oneCall(name, kind, [strs], PROPERTY, (actual) => prefixProblem(strs, actual));
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, false)) cases.push(make('no strings', 'empty', []));
  cases.push(make('one string', 'single', ['alone']));
  cases.push(make('an empty string among others', 'empty', ['', 'abc']));
  cases.push(make('no common prefix', 'not_found', ['dog', 'racecar', 'car']));
  cases.push(make('one string is the prefix', 'bounds', ['ab', 'abc', 'abcd']));
  if (wantsDuplicates(hints)) cases.push(make('identical strings', 'duplicates', ['same', 'same', 'same']));
  cases.push(make('classic', 'typical', ['flower', 'flow', 'flight']));
  const length = largeLength(hints, 200);
  const many = Array.from({ length }, (_, i) => `prefix-${'x'.repeat(i % 7)}${i}`);
  cases.push(make(`${length} strings`, 'large', many));
  return cases;
}

/** The longest common prefix of a list of strings (LeetCode 14). */
export const longestCommonPrefix: AlgorithmFamily = {
  id: 'longest-common-prefix',
  title: 'Longest common prefix',
  classic: 'LeetCode 14 (Longest Common Prefix)',
  names: ['longestcommonprefix', 'commonprefix', 'lcp', 'sharedprefix'],
  nameHints: ['prefix', 'lcp'],
  keywords: ['common prefix', 'prefix', 'array of strings', 'empty string'],
  arity: 1,
  accepts: ({ input, expected }) =>
    isStringArray(input[0]) && isString(expected) && input[0].every((s) => s.startsWith(expected)),
  templates: [
    {
      name: 'vertical-scan',
      description: 'compare column by column until a string ends or differs',
      complexity: 'O(S)',
      source: `function __fn__(strs) {
  if (strs.length === 0) return '';
  for (let i = 0; ; i++) {
    const c = strs[0][i];
    if (c === undefined || strs.some((s) => s[i] !== c)) return strs[0].slice(0, i);
  }
}
`,
    },
    {
      name: 'horizontal-scan',
      description: 'shrink the first string until every other string starts with it',
      complexity: 'O(S)',
      source: `function __fn__(strs) {
  if (strs.length === 0) return '';
  let prefix = strs[0];
  for (const s of strs) {
    while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
`,
    },
  ],
  edgeCases,
  generate: (n) => [Array.from({ length: n }, (_, i) => `commonprefix${i}`)],
};
