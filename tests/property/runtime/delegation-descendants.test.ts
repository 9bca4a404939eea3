import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { descendantsOf, emptyTree } from '../../../machines/runtime/delegation-tree-state.ts';
import { applyDelegationRecord } from '../../../machines/runtime/delegation-tree-steps.ts';

/** Parents of n1..nk, each an earlier node (n0 is the root); `null` starts another root. */
const parentsArb = fc.array(fc.option(fc.nat(), { freq: 5 }), { maxLength: 30 });

describe('descendantsOf (property)', () => {
  it("lists a node's whole subtree once each, depth first in the order delegated, parents before children", () => {
    fc.assert(
      fc.property(parentsArb, fc.nat(), (parents, pick) => {
        const tree = emptyTree();
        const children = new Map<string, string[]>();
        const ids = ['n0', ...parents.map((_, i) => `n${i + 1}`)];
        ids.forEach((id, i) => {
          const raw = i === 0 ? null : parents[i - 1]!;
          const parent = raw === null ? null : ids[raw % i]!;
          if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), id]);
          applyDelegationRecord(tree, {
            kind: 'delegated',
            id,
            parent,
            owner: 'o',
            target: 't',
            deadline: 1_000,
            clamped: false,
            at: 0,
          });
        });
        const preorder = (id: string): string[] =>
          (children.get(id) ?? []).flatMap((child) => [child, ...preorder(child)]);
        const id = ids[pick % ids.length]!;
        expect(descendantsOf(tree, id).map((node) => node.id)).toEqual(preorder(id));
      }),
      { numRuns: 300 },
    );
  });

  it('names an unknown delegation', () => {
    expect(() => descendantsOf(emptyTree(), 'zz')).toThrow(/Delegation zz .*delegate it first/);
  });
});
