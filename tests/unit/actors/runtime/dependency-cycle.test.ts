import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDependencyCycle } from '../../../../actors/runtime/dependency-cycle.ts';

describe('findDependencyCycle', () => {
  it('names the path that closes a cycle', () => {
    expect(
      findDependencyCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    expect(findDependencyCycle(new Map([['s', ['s']]]))).toEqual(['s', 's']);
    expect(
      findDependencyCycle(
        new Map([
          ['a', ['b', 'old']],
          ['b', []],
        ]),
      ),
    ).toBeUndefined();
  });

  it('handles a chain of 20,000 tasks without overflowing the stack', () => {
    const chain = new Map(Array.from({ length: 20_000 }, (_, n) => [`t${n}`, n > 0 ? [`t${n - 1}`] : []]));
    expect(findDependencyCycle(chain)).toBeUndefined();
    chain.set('t0', ['t19999']);
    expect(findDependencyCycle(chain)).toHaveLength(20_001);
  });

  it('finds a cycle exactly when the graph has one, and the path it names is one', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(9), { maxLength: 3 }), { minLength: 1, maxLength: 10 }), (edges) => {
        const graph = new Map(edges.map((deps, n) => [`t${n}`, deps.map((d) => `t${d}`)]));
        const cycle = findDependencyCycle(graph);
        // reference: a graph is acyclic iff repeatedly removing nodes without known dependencies empties it
        const left = new Map(graph);
        let removed = true;
        while (removed) {
          removed = false;
          for (const [id, deps] of left) {
            if (deps.every((d) => !left.has(d))) {
              left.delete(id);
              removed = true;
            }
          }
        }
        expect(cycle !== undefined).toBe(left.size > 0);
        if (cycle) {
          expect(cycle[0]).toBe(cycle.at(-1));
          for (let i = 0; i + 1 < cycle.length; i++) expect(graph.get(cycle[i]!)).toContain(cycle[i + 1]);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
