import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AckRecord } from '../../../protocol/runtime/ack-record.ts';
import { startAckHarness, stopAgent } from '../../support/ack-harness.ts';
import { envelope } from '../../support/test-system.ts';

/*
 * Acknowledged delivery end to end (supervisor, ack ledger, real agent workers) over random
 * schedules of sends, broadcasts, work finishing, agents stopped and time passing: every
 * (message id, receiver) ends acked exactly once or undeliverable exactly once, never both; a
 * receiver's handler starts at most once per id; only a receiver that started on an envelope acks
 * it, and one that never did ends undeliverable; every give-up is emitted and dead-lettered once.
 */

type Command =
  | { kind: 'send' }
  | { kind: 'publish' }
  | { kind: 'finish'; pick: number }
  | { kind: 'stop'; agent: 'B' | 'C' }
  | { kind: 'tick'; ms: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'send' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'publish' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('stop' as const), agent: fc.constantFrom('B' as const, 'C' as const) }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 1_500 }) }) },
);

describe('acknowledged delivery (property)', () => {
  it('ends each (id, receiver) acked once or undeliverable once, runs each id once per receiver', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArb, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 2 }),
        async (commands, maxQueued) => {
          const h = startAckHarness({ agentInput: { maxQueued, retryAfterMs: 300 } });
          const expected = new Set<string>();
          const stoppedAt = new Map<string, number>();
          for (const command of commands) {
            switch (command.kind) {
              case 'send': {
                // B gets questions (A -> B), B and C get news.
                const q = envelope({ data_type: 'question' });
                expected.add(`${q.message_id}/B`);
                h.sendAsA({ type: 'supervisor.send', envelope: q });
                break;
              }
              case 'publish': {
                const news = envelope({ data_type: 'news' });
                for (const r of ['B', 'C']) expected.add(`${news.message_id}/${r}`);
                h.sendAsA({ type: 'supervisor.publish', topic: 'news', envelope: news });
                break;
              }
              case 'finish': {
                const open = h.calls.filter((c) => !c.settled);
                open[command.pick % Math.max(1, open.length)]?.resolve('done');
                break;
              }
              case 'stop':
                if (!stoppedAt.has(command.agent)) {
                  stoppedAt.set(command.agent, h.calls.length);
                  stopAgent(h.child(command.agent));
                }
                break;
              case 'tick':
                h.clock.increment(command.ms);
                break;
            }
            await h.flush();
          }
          // Let everything run out: work finishes, every deadline and backoff passes.
          for (let round = 0; round < 30; round++) {
            for (const call of h.calls) if (!call.settled) call.resolve('done');
            h.clock.increment(1_000);
            await h.flush();
          }
          const trail = (await h.ackTrail()).filter(
            (r): r is Exclude<AckRecord, { kind: 'ack.armed' }> => r.kind !== 'ack.armed',
          );
          const ends = new Map<string, string[]>();
          for (const r of trail)
            ends.set(`${r.message_id}/${r.receiver}`, [...(ends.get(`${r.message_id}/${r.receiver}`) ?? []), r.kind]);
          for (const key of expected) expect(ends.get(key)?.length, key).toBe(1);
          expect([...ends.keys()].every((key) => expected.has(key))).toBe(true);
          const starts = h.calls.filter((c) => c.attempt === 1).map((c) => `${c.requestId}/${c.agent}`);
          expect(new Set(starts).size).toBe(starts.length);
          for (const key of expected) {
            const [id, receiver] = key.split('/') as [string, string];
            const started = h.calls.some(
              (c, index) => c.requestId === id && c.agent === receiver && index < (stoppedAt.get(receiver) ?? Infinity),
            );
            // A receiver acks when it starts, and only then (a start after the give-up changes nothing).
            if (ends.get(key)![0] === 'ack.acked') expect(started, key).toBe(true);
            if (!started) expect(ends.get(key)![0], key).toBe('ack.undeliverable');
          }
          const givenUp = trail.filter((r) => r.kind === 'ack.undeliverable').length;
          expect(h.emitted.filter((e) => e.type === 'supervisor.undeliverable')).toHaveLength(givenUp);
          const deadLetters = h.emitted.filter((e) => e.type === 'supervisor.outbound');
          expect(deadLetters).toHaveLength(givenUp);
          h.actor.stop();
        },
      ),
      { numRuns: 120 },
    );
  });
});
