import { describe, expect, it } from 'vitest';
import { runCalls } from '../../../../../actors/tiers/sandbox/run-calls.ts';
import { runTests } from '../../../../../actors/tiers/sandbox/run-tests.ts';

// Each test starts real child processes; a loaded machine starts Node slowly, hence the generous timeouts.
const SLOW = 30_000;

const binarySearch = `
function search(nums, target) {
  let lo = 0, hi = nums.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (nums[mid] === target) return mid;
    if (nums[mid] < target) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}`;

const searchCases = [
  { input: [[-1, 0, 3, 5, 9, 12], 9], expected: 4 },
  { input: [[-1, 0, 3, 5, 9, 12], 2], expected: -1 },
  { input: [[5], 5], expected: 0 },
  { input: [[], 1], expected: -1 },
];

describe('runTests', () => {
  it(
    'counts a correct solution as passing every case',
    async () => {
      const report = await runTests({ code: binarySearch, functionName: 'search', testCases: searchCases });
      expect(report).toMatchObject({ verdict: 'ok', passed: 4, failed: 0, total: 4 });
      expect(report.cases.map((c) => c.actual)).toEqual([4, -1, 0, -1]);
      expect(report.detail).toBeUndefined();
    },
    SLOW,
  );

  it(
    'counts a wrong solution case by case, with what it returned',
    async () => {
      const offByOne = binarySearch.replace('return mid;', 'return mid + 1;');
      const report = await runTests({ code: offByOne, functionName: 'search', testCases: searchCases });
      expect(report).toMatchObject({ verdict: 'ok', passed: 2, failed: 2, total: 4 });
      expect(report.cases.map((c) => [c.passed, c.actual])).toEqual([
        [false, 5],
        [true, -1],
        [false, 1],
        [true, -1],
      ]);
    },
    SLOW,
  );

  it(
    'compares results structurally, as JSON does',
    async () => {
      const code = `
        function shape(kind) {
          if (kind === 'object') return { b: [1, { c: null }], a: 'x' };
          if (kind === 'negative zero') return -0;
          if (kind === 'nan') return NaN;
          if (kind === 'undefined field') return { a: 1, gone: undefined };
          if (kind === 'nested') return [[1, 2], [3]];
          return undefined;
        }`;
      const report = await runTests({
        code,
        functionName: 'shape',
        testCases: [
          { input: ['object'], expected: { a: 'x', b: [1, { c: null }] } },
          { input: ['negative zero'], expected: 0 },
          { input: ['nan'], expected: null },
          { input: ['undefined field'], expected: { a: 1 } },
          {
            input: ['nested'],
            expected: [
              [1, 2],
              [3, 4],
            ],
          },
          { input: ['nothing'], expected: null },
        ],
      });
      expect(report.cases.map((c) => c.passed)).toEqual([true, true, true, true, false, false]);
      expect(report.cases[5]).not.toHaveProperty('actual');
    },
    SLOW,
  );

  it(
    'reports a call that throws as a failed case and runs the others',
    async () => {
      const code = 'function half(n) { if (n % 2) throw new RangeError(`odd: ${n}`); return n / 2; }';
      const report = await runTests({
        code,
        functionName: 'half',
        testCases: [
          { input: [4], expected: 2 },
          { input: [3], expected: 1.5 },
          { input: [8], expected: 4 },
        ],
      });
      expect(report).toMatchObject({ verdict: 'ok', passed: 2, failed: 1 });
      expect(report.cases[1]).toMatchObject({ passed: false, error: 'RangeError: odd: 3' });
    },
    SLOW,
  );

  it(
    'ends compile_error with the line for a syntax error, and fails every case',
    async () => {
      const report = await runTests({
        code: 'function search(nums, target) {\n  return nums.indexOf(target)\n',
        functionName: 'search',
        testCases: searchCases,
      });
      expect(report).toMatchObject({ verdict: 'compile_error', passed: 0, failed: 4, total: 4 });
      expect(report.detail).toMatch(/SyntaxError: Unexpected end of input/);
      expect(report.cases[0]?.error).toMatch(/not run: the run ended compile_error/);
    },
    SLOW,
  );

  it(
    'says which function is missing and how to define it',
    async () => {
      const report = await runTests({ code: binarySearch, functionName: 'find', testCases: searchCases });
      expect(report.verdict).toBe('compile_error');
      expect(report.detail).toMatch(
        /defines no function named find: define `function find\(\.\.\.\)` at the top level/,
      );
      const notAFunction = await runCalls({ code: 'const find = 42;', functionName: 'find', calls: [[]] });
      expect(notAFunction).toMatchObject({
        verdict: 'compile_error',
        detail: expect.stringMatching(/find is a number/),
      });
    },
    SLOW,
  );

  it(
    'finds the function as a const, an async function, or in module.exports',
    async () => {
      const shapes = [
        'const twice = (n) => n * 2;',
        'async function twice(n) { return n * 2; }',
        'function helper(n) { return n * 2; }\nmodule.exports = { twice: helper };',
        'module.exports = function twice(n) { return n * 2; };',
      ];
      const reports = await Promise.all(
        shapes.map((code) => runTests({ code, functionName: 'twice', testCases: [{ input: [21], expected: 42 }] })),
      );
      expect(reports.map((r) => [r.verdict, r.passed])).toEqual(shapes.map(() => ['ok', 1]));
    },
    SLOW,
  );

  it(
    'keeps parallel runs apart: each gets its own results',
    async () => {
      const runs = Array.from({ length: 4 }, (_, k) =>
        runCalls({
          code: `let calls = 0; function tag(x) { calls += 1; return [${k}, x, calls]; }`,
          functionName: 'tag',
          calls: [[`a${k}`], [`b${k}`]],
        }),
      );
      const reports = await Promise.all(runs);
      reports.forEach((report, k) => {
        expect(report.verdict).toBe('ok');
        expect(report.results.map((r) => r.value)).toEqual([
          [k, `a${k}`, 1],
          [k, `b${k}`, 2],
        ]);
      });
    },
    SLOW,
  );

  it(
    'gives each repeat fresh arguments and reports the mean duration',
    async () => {
      const code = 'function sortIt(xs) { xs.sort((a, b) => a - b); xs.push("touched"); return xs.length; }';
      const report = await runCalls({ code, functionName: 'sortIt', calls: [[[3, 1, 2]]], repeat: 5 });
      expect(report.results).toEqual([{ ok: true, value: 4, durationMs: expect.any(Number) }]);
    },
    SLOW,
  );
});
