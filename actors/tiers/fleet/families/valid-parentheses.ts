import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, wantsEmpty } from '../edge-case-kit.ts';
import { isBoolean, isString, preview } from '../value-shapes.ts';

const PROPERTY = 'result is true iff deleting adjacent matched pairs (), [], {} over and over empties the string';

/** The characterisation of a valid bracket string, applied directly (quadratic, for short strings). */
function reducesToEmpty(s: string): boolean {
  let current = s;
  for (;;) {
    const next = current.replace(/\(\)|\[\]|\{\}/g, '');
    if (next === current) return next === '';
    current = next;
  }
}

function edgeCases(hints: ConstraintHints): EdgeCase[] {
  const make = (name: string, kind: EdgeCase['kind'], s: string) =>
    oneCall(name, kind, [s], PROPERTY, (actual) => {
      if (!isBoolean(actual)) return `returned ${preview(actual)}, not a boolean`;
      const valid = reducesToEmpty(s);
      return actual === valid
        ? null
        : `returned ${actual} for ${preview(s)}, which is ${valid ? 'valid' : 'not valid'}`;
    });
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, true)) cases.push(make('empty string', 'empty', ''));
  cases.push(make('single opening bracket', 'single', '('));
  cases.push(make('single closing bracket', 'single', ']'));
  cases.push(make('one pair of each kind', 'typical', '()[]{}'));
  cases.push(make('nested', 'typical', '{[()]}'));
  cases.push(make('crossed pairs', 'not_found', '([)]'));
  cases.push(make('closes before it opens', 'not_found', ')('));
  cases.push(make('unclosed at the end', 'not_found', '(()'));
  cases.push(make('same kind repeated', 'duplicates', '(((())))'));
  const half = Math.floor(largeLength(hints, 1000) / 2);
  cases.push(make(`${2 * half} characters, deeply nested`, 'large', '('.repeat(half) + ')'.repeat(half)));
  cases.push(make(`${2 * half} characters, one missing`, 'large', '('.repeat(half) + ')'.repeat(half - 1)));
  return cases;
}

/** Whether a string of brackets is balanced and well nested (LeetCode 20). */
export const validParentheses: AlgorithmFamily = {
  id: 'valid-parentheses',
  title: 'Valid parentheses',
  classic: 'LeetCode 20 (Valid Parentheses)',
  names: ['isvalid', 'validparentheses', 'isvalidparentheses', 'isbalanced', 'balancedbrackets', 'checkbrackets'],
  nameHints: ['paren', 'bracket', 'balanced', 'valid'],
  keywords: ['parenthes', 'bracket', 'balanced', 'open brackets', 'closed by the same type', 'correct order'],
  arity: 1,
  accepts: ({ input, expected }) => isString(input[0]) && /^[()[\]{}]*$/.test(input[0]) && isBoolean(expected),
  templates: [
    {
      name: 'stack',
      description: 'push openers, pop and match on closers',
      complexity: 'O(n)',
      source: `function __fn__(s) {
  const pairs = { ')': '(', ']': '[', '}': '{' };
  const stack = [];
  for (const c of s) {
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (!(c in pairs) || stack.pop() !== pairs[c]) return false;
  }
  return stack.length === 0;
}
`,
    },
    {
      name: 'pair-removal',
      description: 'delete adjacent matched pairs until nothing changes',
      complexity: 'O(n^2)',
      source: `function __fn__(s) {
  let current = s;
  for (;;) {
    const next = current.replace(/\\(\\)|\\[\\]|\\{\\}/g, '');
    if (next === current) return next === '';
    current = next;
  }
}
`,
    },
  ],
  edgeCases,
  generate: (n) => ['('.repeat(Math.floor(n / 2)) + ')'.repeat(Math.floor(n / 2))],
};
