import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertByPriority, type MailboxPriority } from '../../../../machines/runtime/mailbox-priority.ts';

const labels = ['critical', 'high', 'medium', 'low'] as const;
const declaration: MailboxPriority = {
  path: 'envelope.priority',
  scale: { labels: { critical: 0, high: 1, medium: 2, low: 3 } },
};

describe('insertByPriority', () => {
  it('keeps a queue most urgent first, in arrival order within a priority', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...labels), { maxLength: 30 }), (arrivals) => {
        let queue: { requestId: string; input: unknown; priority?: number }[] = [];
        arrivals.forEach((priority, n) => {
          queue = insertByPriority(queue, { requestId: `r${n}`, input: { envelope: { priority } } }, declaration);
        });
        const expected = arrivals
          .map((priority, n) => ({ n, rank: labels.indexOf(priority) }))
          .sort((a, b) => a.rank - b.rank || a.n - b.n)
          .map(({ n }) => `r${n}`);
        expect(queue.map((r) => r.requestId)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('appends without a declaration (FIFO), and puts an unreadable priority last', () => {
    const queue = [{ requestId: 'a', input: { envelope: { priority: 'low' } } }];
    expect(
      insertByPriority(queue, { requestId: 'b', input: { envelope: { priority: 'critical' } } }, undefined).map(
        (r) => r.requestId,
      ),
    ).toEqual(['a', 'b']);
    const ranked = insertByPriority([], { requestId: 'a', input: {} }, declaration);
    expect(
      insertByPriority(ranked, { requestId: 'b', input: { envelope: { priority: 'low' } } }, declaration).map(
        (r) => r.requestId,
      ),
    ).toEqual(['b', 'a']);
  });
});
