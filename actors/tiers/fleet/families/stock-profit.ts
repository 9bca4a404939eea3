import type { AlgorithmFamily, EdgeCase } from '../algorithm-family.ts';
import type { ConstraintHints } from '../constraint-hints.ts';
import { largeLength, oneCall, spreadInts, valueRange, wantsEmpty } from '../edge-case-kit.ts';
import type { TestCase } from '../specialist-result.ts';
import { isInt, isIntArray, preview } from '../value-shapes.ts';

/** Best single buy-then-sell (0 when prices only fall), over every pair of days. */
function bestSingleTrade(prices: number[]): number {
  let best = 0;
  for (let i = 0; i < prices.length; i++) {
    for (let j = i + 1; j < prices.length; j++) best = Math.max(best, prices[j]! - prices[i]!);
  }
  return best;
}

/** No strategy of non-overlapping trades earns more than every daily rise, and buying before each rise earns exactly that. */
const sumOfRises = (prices: number[]) =>
  prices.reduce((sum, price, i) => (i > 0 && price > prices[i - 1]! ? sum + price - prices[i - 1]! : sum), 0);

/** 'many' when the problem's own examples allow any number of trades (LeetCode 122), else 'one' (LeetCode 121). */
function tradeRule(examples: readonly TestCase[]): 'one' | 'many' {
  const fits = (rule: (p: number[]) => number) =>
    examples.every(({ input, expected }) => rule(input[0] as number[]) === expected);
  return !fits(bestSingleTrade) && fits(sumOfRises) ? 'many' : 'one';
}

function edgeCases(hints: ConstraintHints, examples: readonly TestCase[]): EdgeCase[] {
  const rule = tradeRule(examples);
  const property =
    rule === 'one'
      ? 'result >= 0, some buy day before a sell day earns it (or it is 0), and no such pair earns more'
      : 'result >= 0 and equals the best total of non-overlapping trades (the sum of the daily rises)';
  const best = rule === 'one' ? bestSingleTrade : sumOfRises;
  const make = (name: string, kind: EdgeCase['kind'], prices: number[]) =>
    oneCall(name, kind, [prices], property, (actual) => {
      if (!isInt(actual) || actual < 0) return `returned ${preview(actual)}, not a non-negative integer`;
      const top = best(prices);
      return actual === top ? null : `returned ${actual} but ${top} is achievable and nothing more is`;
    });
  const { min, max } = valueRange(hints, { min: 0, max: 10_000 });
  const cases: EdgeCase[] = [];
  if (wantsEmpty(hints, true)) cases.push(make('no days', 'empty', []));
  cases.push(make('one day', 'single', [Math.min(max, 5)]));
  cases.push(
    make(
      'prices only fall',
      'not_found',
      [7, 6, 4, 3, 1].map((p) => Math.min(max, Math.max(min, p))),
    ),
  );
  cases.push(
    make(
      'flat prices',
      'duplicates',
      [3, 3, 3, 3].map((p) => Math.min(max, Math.max(min, p))),
    ),
  );
  cases.push(
    make(
      'rise and fall',
      'typical',
      [7, 1, 5, 3, 6, 4].map((p) => Math.min(max, Math.max(min, p))),
    ),
  );
  cases.push(
    make(
      'minimum after the maximum',
      'typical',
      [2, 9, 1, 4].map((p) => Math.min(max, Math.max(min, p))),
    ),
  );
  if (min < max) cases.push(make('values at both bounds', 'bounds', [max, min, max]));
  const length = largeLength(hints, 1000);
  cases.push(make(`${length} days`, 'large', spreadInts(length, min, Math.min(max, min + 1000))));
  return cases;
}

/** Most profit from stock prices: one trade (LeetCode 121) or any number (LeetCode 122). */
export const stockProfit: AlgorithmFamily = {
  id: 'stock-profit',
  title: 'Best time to buy and sell stock',
  classic: 'LeetCode 121 and 122 (Best Time to Buy and Sell Stock, I and II)',
  names: ['maxprofit', 'maximumprofit', 'bestprofit', 'stockprofit', 'besttimetobuyandsellstock'],
  nameHints: ['profit', 'stock', 'buysell'],
  keywords: ['stock', 'price', 'profit', 'buy', 'sell', 'day'],
  arity: 1,
  accepts: ({ input, expected }) =>
    isIntArray(input[0]) && input[0].every((p) => p >= 0) && isInt(expected) && expected >= 0,
  templates: [
    {
      name: 'one-pass-min',
      description: 'one trade: the lowest price so far against each later price (LeetCode 121)',
      complexity: 'O(n)',
      source: `function __fn__(prices) {
  let low = Infinity;
  let best = 0;
  for (const price of prices) {
    low = Math.min(low, price);
    best = Math.max(best, price - low);
  }
  return best;
}
`,
    },
    {
      name: 'sum-of-rises',
      description: 'any number of trades: add every rise from one day to the next (LeetCode 122)',
      complexity: 'O(n)',
      source: `function __fn__(prices) {
  let total = 0;
  for (let i = 1; i < prices.length; i++) {
    if (prices[i] > prices[i - 1]) total += prices[i] - prices[i - 1];
  }
  return total;
}
`,
    },
  ],
  edgeCases,
  generate: (n, random) => [Array.from({ length: n }, () => Math.floor(random() * 10_000))],
};
