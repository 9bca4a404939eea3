import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyTree, type DelegationTreeState } from '../../../../machines/runtime/delegation-tree-state.ts';
import {
  applyDelegationRecord,
  planCancellation,
  planDelegation,
  planOutcome,
  planTimeout,
  type RetryRule,
} from '../../../../machines/runtime/delegation-tree-steps.ts';
import type { DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';
import { OutcomeStatusSchema } from '../../../../protocol/runtime/outcome-status.ts';

const retry: RetryRule = { policy: { baseMs: 100, maxMs: 1_000 }, maxRetries: 3, random: () => 0 };

/** A tree holding the delegations `ids` (each under the one before), delegated at t = 1000 for 10 s. */
function treeOf(...ids: string[]): DelegationTreeState {
  const tree = emptyTree();
  ids.forEach((id, i) => {
    const parent = i === 0 ? null : ids[i - 1]!;
    applyDelegationRecord(tree, planDelegation(tree, { id, parent, owner: 'A', target: 'B' }, 1_000, 10_000)!);
  });
  return tree;
}

const ended = (tree: DelegationTreeState, id: string, status: 'success' | 'failed' = 'success') =>
  applyDelegationRecord(tree, planOutcome(tree, id, { status }, 1_100, retry));

describe('planDelegation', () => {
  it("journals a delegation's data as given, and no data field when it has none", () => {
    const tree = emptyTree();
    const bare = { kind: 'delegated', id: 'a', parent: null, owner: 'A', target: 'B', deadline: 1_500, clamped: false };
    expect(planDelegation(tree, { id: 'a', owner: 'A', target: 'B', timeoutMs: 500 }, 1_000, 60_000)).toStrictEqual({
      ...bare,
      at: 1_000,
    });
    for (const data of [{ task: 'solve' }, null, 0, '']) {
      expect(
        planDelegation(tree, { id: 'a', owner: 'A', target: 'B', timeoutMs: 500, data }, 1_000, 60_000),
      ).toStrictEqual({ ...bare, at: 1_000, data });
    }
  });
});

describe('planOutcome', () => {
  it('journals only the fields the target reported', () => {
    const tree = treeOf('a');
    expect(planOutcome(tree, 'a', { status: 'success' }, 1_200, retry)).toStrictEqual({
      kind: 'outcome',
      id: 'a',
      status: 'success',
      at: 1_200,
      late: false,
    });
    expect(
      planOutcome(
        tree,
        'a',
        { status: 'partial', result: { draft: 1 }, confidence: 0.4, messageId: 'out-1' },
        1_200,
        retry,
      ),
    ).toStrictEqual({
      kind: 'outcome',
      id: 'a',
      status: 'partial',
      at: 1_200,
      late: false,
      result: { draft: 1 },
      confidence: 0.4,
      message: 'out-1',
    });
  });

  it('takes a confidence within 0..1, both ends included, and refuses any other', () => {
    const tree = treeOf('a');
    for (const confidence of [0, 1]) {
      expect(planOutcome(tree, 'a', { status: 'success', confidence }, 1_200, retry).confidence).toBe(confidence);
    }
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (confidence) => {
        expect(planOutcome(tree, 'a', { status: 'success', confidence }, 1_200, retry).confidence).toBe(confidence);
      }),
      { numRuns: 200 },
    );
    const outside = fc.oneof(
      fc.double({ max: -Number.MIN_VALUE }),
      fc.double({ min: 1 + Number.EPSILON, noNaN: true }),
      fc.constant(Number.NaN),
    );
    fc.assert(
      fc.property(outside, (confidence) => {
        expect(() => planOutcome(tree, 'a', { status: 'success', confidence }, 1_200, retry)).toThrow(
          /confidence must be within 0\.\.1/,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('plans a retry only for a throttled outcome of a node still open', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OutcomeStatusSchema.options), fc.boolean(), (status, late) => {
        const tree = treeOf('a');
        if (late) ended(tree, 'a', 'failed');
        const record = planOutcome(tree, 'a', { status }, 1_200, retry);
        expect(record.late).toBe(late);
        if (status === 'throttled' && !late) expect(record.retryAt).toBe(1_300);
        else expect(record).not.toHaveProperty('retryAt');
      }),
      { numRuns: 100 },
    );
  });
});

describe('planTimeout', () => {
  it('times out an open node, and nothing once it ended', () => {
    const tree = treeOf('a', 'b');
    expect(planTimeout(tree, 'a', 11_000)).toEqual({ kind: 'timed_out', id: 'a', at: 11_000 });
    ended(tree, 'a');
    expect(planTimeout(tree, 'a', 11_000)).toBeUndefined();
    expect(planTimeout(tree, 'b', 11_000)).toEqual({ kind: 'timed_out', id: 'b', at: 11_000 });
  });
});

describe('planCancellation', () => {
  it('keeps partial results only for the nodes that gave some', () => {
    const tree = treeOf('root', 'child', 'grandchild');
    const record = planCancellation(tree, 'root', { reason: 'revised', cascade: true }, 1_300, (node) =>
      node.id === 'child' ? { half: true } : undefined,
    );
    expect(record).toStrictEqual({
      kind: 'cancelled',
      id: 'root',
      reason: 'revised',
      cascade: true,
      at: 1_300,
      partials: { child: { half: true } },
    });
  });
});

describe('applyDelegationRecord', () => {
  const delegated = (id: string, data?: unknown): DelegationRecord => ({
    kind: 'delegated',
    id,
    parent: null,
    owner: 'A',
    target: 'B',
    deadline: 5_000,
    clamped: false,
    at: 0,
    ...(data === undefined ? {} : { data }),
  });

  it('refuses a delegation journaled twice, naming it', () => {
    const tree = emptyTree();
    applyDelegationRecord(tree, delegated('a', 'first'));
    expect(() => applyDelegationRecord(tree, delegated('a', 'second'))).toThrow('Delegation a is journaled twice.');
    expect(tree.nodes.get('a')?.data).toBe('first');
  });

  it('builds a node holding exactly what its records held', () => {
    const tree = emptyTree();
    applyDelegationRecord(tree, delegated('bare'));
    applyDelegationRecord(tree, delegated('full', { task: 'x' }));
    applyDelegationRecord(tree, { kind: 'timed_out', id: 'bare', at: 5_000 });
    applyDelegationRecord(tree, {
      kind: 'outcome',
      id: 'full',
      status: 'success',
      result: 42,
      confidence: 0.5,
      message: 'out-1',
      at: 10,
      late: false,
    });
    const common = { parent: null, owner: 'A', target: 'B', deadline: 5_000, delegatedAt: 0, clamped: false };
    const after = { abandoned: false, throttled: 0, retryAt: null, children: [], lateOutcomes: 0 };
    expect(tree.nodes.get('full')).toStrictEqual({
      id: 'full',
      ...common,
      data: { task: 'x' },
      status: 'success',
      result: 42,
      confidence: 0.5,
      settledByMessage: 'out-1',
      settledBy: 'target',
      settledAt: 10,
      settleOrder: 2,
      ...after,
    });
    expect(tree.nodes.get('bare')).toStrictEqual({
      id: 'bare',
      ...common,
      status: 'timeout',
      settledBy: 'watchdog',
      settledAt: 5_000,
      settleOrder: 1,
      ...after,
    });
    applyDelegationRecord(tree, delegated('plain'));
    applyDelegationRecord(tree, { kind: 'outcome', id: 'plain', status: 'failed', at: 20, late: false });
    const plain = tree.nodes.get('plain')!;
    for (const field of ['data', 'result', 'confidence', 'settledByMessage']) expect(plain).not.toHaveProperty(field);
  });

  it('takes a timeout of a node that already ended as late, changing nothing', () => {
    const tree = emptyTree();
    applyDelegationRecord(tree, delegated('a'));
    applyDelegationRecord(tree, { kind: 'outcome', id: 'a', status: 'success', result: 'ok', at: 10, late: false });
    const before = structuredClone(tree.nodes.get('a'));
    expect(applyDelegationRecord(tree, { kind: 'timed_out', id: 'a', at: 5_000 })).toEqual({
      settled: [],
      abandoned: [],
      late: true,
    });
    expect(tree.nodes.get('a')).toStrictEqual(before);
    expect(tree.settled).toBe(1);
  });
});
