import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrozenPrefixFold } from '../../../actors/models/frozen-prefix-fold.ts';

type Item = { id: number };

/** A fold that hashes the ids it sees (order matters) and counts its steps. */
function countingFold() {
  let steps = 0;
  const step = (state: number, item: Item) => {
    steps += 1;
    return (Math.imul(state, 31) + item.id + 1) | 0;
  };
  return { fold: new FrozenPrefixFold<Item, number>(step, 7, Object.isFrozen), step, steps: () => steps };
}

/** A pool of items, some frozen (remembered), some not; arrays are picks from it. */
const pool: Item[] = Array.from({ length: 12 }, (_, id) => (id % 4 === 3 ? { id } : Object.freeze({ id })));
const anyArray = fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { maxLength: 12 });
/** Each call: an array of its own, or the previous one grown, cut back or changed at one place. */
const anyCall = fc.oneof(
  anyArray.map((picks) => ({ kind: 'new' as const, picks })),
  anyArray.map((picks) => ({ kind: 'grow' as const, picks })),
  fc.nat().map((at) => ({ kind: 'cut' as const, at })),
  fc
    .tuple(fc.nat(), fc.integer({ min: 0, max: pool.length - 1 }))
    .map(([at, pick]) => ({ kind: 'swap' as const, at, pick })),
);

describe('FrozenPrefixFold', () => {
  it('gives what folding every item from the start gives, whatever the calls share', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(anyCall, fc.constantFrom(7, 11)), { minLength: 1, maxLength: 30 }), (calls) => {
        const { fold, step } = countingFold();
        let previous: Item[] = [];
        for (const [call, initial] of calls) {
          let items: Item[];
          if (call.kind === 'new') items = call.picks.map((i) => pool[i]!);
          else if (call.kind === 'grow') items = [...previous, ...call.picks.map((i) => pool[i]!)];
          else if (call.kind === 'cut')
            items = previous.slice(0, previous.length === 0 ? 0 : call.at % previous.length);
          else {
            items = [...previous];
            if (items.length > 0) items[call.at % items.length] = pool[call.pick]!;
          }
          expect(fold.fold(items, initial)).toBe(items.reduce(step, initial));
          previous = items;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('steps only through the items past the frozen prefix it folded before', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 40 }), (growths) => {
        const { fold, steps } = countingFold();
        const items: Item[] = [];
        let id = 0;
        for (const growth of growths) {
          for (let i = 0; i < growth; i++) items.push(Object.freeze({ id: id++ }));
          fold.fold([...items]);
        }
        // Every item was stepped through once, though each call sent the whole array.
        expect(steps()).toBe(items.length);
      }),
      { numRuns: 200 },
    );
  });

  it('remembers nothing past an item that is not frozen', () => {
    const { fold, steps } = countingFold();
    const items = [Object.freeze({ id: 1 }), { id: 2 }, Object.freeze({ id: 3 })];
    fold.fold(items);
    fold.fold(items);
    // The first item is remembered; the unfrozen one and what follows it are stepped again.
    expect(steps()).toBe(3 + 2);
  });
});
