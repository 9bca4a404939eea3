import { describe, expect, it } from 'vitest';
import { OutputCommit } from '../../../../machines/runtime/output-commit.ts';

/** Settles `ticket` for `targets` and releases what that frees. */
function settle(commit: OutputCommit<string>, ticket: number, targets: string[]) {
  const freed = new Set<string>();
  commit.settled(ticket, targets, freed);
  return commit.release(freed);
}

describe('OutputCommit', () => {
  it('holds what an agent produces until every early delivery to it is settled, then releases it in order', () => {
    const commit = new OutputCommit<string>();
    commit.deliveredEarly(1, ['A']);
    commit.deliveredEarly(2, ['A', 'B']);
    expect([commit.waits('A'), commit.waits('B'), commit.waits('C')]).toEqual([true, true, false]);
    commit.hold('A', 'a1');
    commit.hold('A', 'a2');
    expect(commit.holding).toBe(1);

    expect(settle(commit, 1, ['A'])).toEqual([]);
    expect(commit.waits('A')).toBe(true);
    expect(settle(commit, 2, ['A', 'B'])).toEqual([{ agent: 'A', events: ['a1', 'a2'], revoked: [] }]);
    expect([commit.waits('A'), commit.waits('B'), commit.holding]).toEqual([false, false, 0]);
  });

  it('keeps an agent waiting until the last of its early deliveries settles, in whichever order they settle', () => {
    const commit = new OutputCommit<string>();
    commit.deliveredEarly(1, ['A']);
    commit.deliveredEarly(2, ['A']);
    commit.hold('A', 'a1');
    expect(settle(commit, 2, ['A'])).toEqual([]);
    expect(commit.waits('A')).toBe(true);
    expect(settle(commit, 1, ['A'])).toEqual([{ agent: 'A', events: ['a1'], revoked: [] }]);
  });

  it('keeps an agent waiting while it holds events, even with no delivery unsettled, so they keep their order', () => {
    const commit = new OutputCommit<string>();
    commit.hold('A', 'a1');
    expect(commit.waits('A')).toBe(true);
  });

  it('never makes an event without a sender wait', () => {
    const commit = new OutputCommit<string>();
    commit.deliveredEarly(1, ['A']);
    expect(commit.waits(undefined)).toBe(false);
  });

  it('ignores a settlement of a ticket it was never told of, or told of for another target', () => {
    const commit = new OutputCommit<string>();
    commit.deliveredEarly(1, ['A']);
    commit.hold('A', 'a1');
    expect(settle(commit, 7, ['A', 'B'])).toEqual([]);
    expect(settle(commit, 1, ['B'])).toEqual([]);
    expect(commit.waits('A')).toBe(true);
  });

  it('names a revoked delivery beside the events it held back', () => {
    const commit = new OutputCommit<string>();
    commit.deliveredEarly(1, ['A']);
    commit.hold('A', 'a1');
    commit.revoke('req-1', ['A', 'B']);
    expect(settle(commit, 1, ['A'])).toEqual([{ agent: 'A', events: ['a1'], revoked: ['req-1'] }]);
  });
});
