import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AckLedger } from '../../../machines/runtime/ack-ledger.ts';

/*
 * The ack ledger over random receivers and schedules: per delivery a receiver acks after a while
 * (perhaps after its deadline), throttles, or stays silent. Every (id, receiver) ends acked exactly
 * once or undeliverable exactly once, never both; it is delivered at most `retries + 1` times, a
 * redelivery never comes before the previous deadline (or a throttle's retryAfterMs), and an
 * all-silent pair is undeliverable after exactly `retries + 1` deliveries.
 */

type Reaction = { kind: 'ack'; afterMs: number } | { kind: 'throttle'; afterMs: number } | { kind: 'silent' };

const reactionArb: fc.Arbitrary<Reaction> = fc.oneof(
  fc.record({ kind: fc.constant('ack' as const), afterMs: fc.integer({ min: 0, max: 800 }) }),
  fc.record({ kind: fc.constant('throttle' as const), afterMs: fc.integer({ min: 0, max: 50 }) }),
  fc.constant({ kind: 'silent' as const }),
);

const pairArb = fc.record({
  receivers: fc.integer({ min: 1, max: 3 }),
  timeoutMs: fc.integer({ min: 10, max: 500 }),
  retries: fc.integer({ min: 0, max: 3 }),
  sentAt: fc.integer({ min: 0, max: 300 }),
  /** What the receiver does at each delivery (cycled). */
  reactions: fc.array(reactionArb, { minLength: 1, maxLength: 5 }),
});

describe('AckLedger (property)', () => {
  it('ends each (id, receiver) acked once or undeliverable once, within its retries', () => {
    fc.assert(
      fc.property(
        fc.array(pairArb, { minLength: 1, maxLength: 5 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (messages, r) => {
          const ledger = new AckLedger<null>({ backoff: { baseMs: 20, maxMs: 400 }, random: () => r });
          const deliveries = new Map<string, { at: number; deadline: number }[]>();
          const acked = new Map<string, number>();
          const undeliverable = new Map<string, number>();
          const actions: { at: number; id: string; receiver: string; attempt: number; reaction: Reaction }[] = [];
          const reactionOf = (id: string, attempt: number) => {
            const reactions = messages[Number(id.slice(1))]!.reactions;
            return reactions[(attempt - 1) % reactions.length]!;
          };
          const onDelivery = (id: string, receiver: string, attempt: number, at: number, deadline: number) => {
            const key = `${id}/${receiver}`;
            const previous = deliveries.get(key) ?? [];
            if (previous.length > 0) expect(at).toBeGreaterThanOrEqual(previous[previous.length - 1]!.deadline);
            expect(attempt).toBe(previous.length + 1);
            deliveries.set(key, [...previous, { at, deadline }]);
            const reaction = reactionOf(id, attempt);
            if (reaction.kind !== 'silent')
              actions.push({ at: at + reaction.afterMs, id, receiver, attempt, reaction });
          };
          const pending = messages.map((m, index) => ({ ...m, id: `m${index}` })).sort((a, b) => a.sentAt - b.sentAt);
          let now = 0;
          for (let step = 0; step < 10_000; step++) {
            const nextSend = pending[0]?.sentAt;
            const nextAction = Math.min(...actions.map((a) => a.at));
            const nextDue = ledger.nextDueAt() ?? Infinity;
            const next = Math.min(nextSend ?? Infinity, nextAction, nextDue);
            if (next === Infinity) break;
            now = Math.max(now, next);
            while (pending[0] && pending[0].sentAt <= now) {
              const m = pending.shift()!;
              for (let i = 0; i < m.receivers; i++) {
                const entry = ledger.delivered(
                  m.id,
                  `R${i}`,
                  { timeoutMs: m.timeoutMs, retries: m.retries },
                  now,
                  null,
                );
                onDelivery(m.id, `R${i}`, 1, now, entry.dueAt);
              }
            }
            for (const action of actions.filter((a) => a.at <= now)) {
              actions.splice(actions.indexOf(action), 1);
              const key = `${action.id}/${action.receiver}`;
              if (action.reaction.kind === 'ack') {
                const settled = ledger.acked(action.id, action.receiver);
                if (settled) {
                  expect(undeliverable.has(key)).toBe(false);
                  acked.set(key, (acked.get(key) ?? 0) + 1);
                }
              } else {
                const throttled = ledger.throttled(action.id, action.receiver, now, 30);
                if (throttled?.gaveUp) undeliverable.set(key, (undeliverable.get(key) ?? 0) + 1);
                // A throttled delivery ends now: the next one waits its retryAfterMs, not the deadline.
                const last = throttled && deliveries.get(key)!.at(-1)!;
                if (last) last.deadline = now + 30;
              }
            }
            for (const due of ledger.due(now)) {
              const { messageId, receiver, attempts, dueAt } = due.entry;
              const key = `${messageId}/${receiver}`;
              if (due.type === 'redeliver') onDelivery(messageId, receiver, attempts, now, dueAt);
              else {
                expect(acked.has(key)).toBe(false);
                undeliverable.set(key, (undeliverable.get(key) ?? 0) + 1);
              }
            }
          }
          expect(ledger.size).toBe(0);
          messages.forEach((m, index) => {
            for (let i = 0; i < m.receivers; i++) {
              const key = `m${index}/R${i}`;
              const ends = (acked.get(key) ?? 0) + (undeliverable.get(key) ?? 0);
              expect(ends).toBe(1);
              expect(acked.has(key) && undeliverable.has(key)).toBe(false);
              const count = deliveries.get(key)!.length;
              expect(count).toBeLessThanOrEqual(m.retries + 1);
              if (m.reactions.every((reaction) => reaction.kind === 'silent')) {
                expect(undeliverable.has(key)).toBe(true);
                expect(count).toBe(m.retries + 1);
              }
            }
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
