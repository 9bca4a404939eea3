import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentReportSchema } from '../../../protocol/runtime/agent-report.ts';
import { flush, startAgentHarness, type AgentHarness } from '../../support/agent-harness.ts';

/*
 * The agent's bounded mailbox under any arrival pattern: it never holds more than `maxQueued`,
 * every request gets exactly one outcome, a redelivered id is never run twice, and an ack is sent
 * only for a request that started.
 */

const TIMEOUT = 100;

type Command =
  | { kind: 'send'; ack: boolean }
  | { kind: 'redeliver'; pick: number }
  | { kind: 'resolve' }
  | { kind: 'reject' }
  | { kind: 'timeout' }
  | { kind: 'cancel'; pick: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('send' as const), ack: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'resolve' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reject' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'timeout' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
);

const queueOf = (harness: AgentHarness) =>
  harness.parent.getSnapshot().children.agent!.getSnapshot().context.queue as unknown[];

describe('agent mailbox (property)', () => {
  it('holds at most maxQueued, reports each request exactly once, runs each id once, acks only started work', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4 }),
        fc.array(commandArb, { minLength: 1, maxLength: 40 }),
        async (maxQueued, commands) => {
          const harness = startAgentHarness({ name: 'W', timeoutMs: TIMEOUT, maxAttempts: 2, maxQueued });
          const sent: { id: string; ack: boolean }[] = [];
          const cancelled = new Set<string>();
          const throttledIds = () =>
            new Set(
              harness.reports.filter((r) => r.report.outcome.status === 'throttled').map((r) => r.report.requestId),
            );
          for (const command of commands) {
            switch (command.kind) {
              case 'send': {
                const id = `r${sent.length}`;
                sent.push({ id, ack: command.ack });
                harness.send({
                  type: 'agent.request',
                  requestId: id,
                  input: id,
                  ...(command.ack ? { ack: true } : {}),
                });
                break;
              }
              case 'redeliver': {
                // Redeliveries of ids that were accepted and never cancelled (a cancelled id may run again).
                const throttled = throttledIds();
                const eligible = sent.filter((s) => !throttled.has(s.id) && !cancelled.has(s.id));
                const chosen = eligible[command.pick % Math.max(1, eligible.length)];
                if (chosen)
                  harness.send({
                    type: 'agent.request',
                    requestId: chosen.id,
                    input: chosen.id,
                    ...(chosen.ack ? { ack: true } : {}),
                  });
                break;
              }
              case 'resolve':
                harness.activeCall()?.resolve('ok');
                await flush();
                break;
              case 'reject':
                harness.activeCall()?.reject(new Error('no'));
                await flush();
                break;
              case 'timeout':
                harness.clock.increment(TIMEOUT);
                break;
              case 'cancel': {
                const chosen = sent[command.pick % Math.max(1, sent.length)];
                if (!chosen) break;
                cancelled.add(chosen.id);
                harness.send({ type: 'agent.cancel', requestId: chosen.id });
                break;
              }
            }
            expect(queueOf(harness).length).toBeLessThanOrEqual(maxQueued);
          }
          // Drain: every accepted request finishes.
          for (let guard = 0; harness.activeCall() && guard < 200; guard++) {
            harness.activeCall()!.resolve('ok');
            await flush();
          }
          const reports = harness.reports.map(({ report }) => AgentReportSchema.parse(report));
          const byId = new Map<string, string[]>();
          for (const report of reports)
            byId.set(report.requestId, [...(byId.get(report.requestId) ?? []), report.outcome.status]);
          for (const { id } of sent) {
            const outcomes = byId.get(id) ?? [];
            // A cancel after a report finds nothing; a report after a cancel cannot happen.
            expect(outcomes).toHaveLength(1);
            expect(['completed', 'failed', 'cancelled', 'throttled']).toContain(outcomes[0]);
          }
          // The brain starts each id at most once (attempt 1), and only ids that asked are acked, once started.
          const starts = harness.calls.filter((c) => c.input.attempt === 1).map((c) => c.input.requestId);
          expect(new Set(starts).size).toBe(starts.length);
          const acked = new Set(harness.acks());
          const askedAck = new Set(sent.filter((s) => s.ack).map((s) => s.id));
          for (const id of acked) {
            expect(starts).toContain(id);
            expect(askedAck.has(id)).toBe(true);
          }
          for (const id of starts) if (askedAck.has(id)) expect(acked.has(id)).toBe(true);
          for (const id of throttledIds()) expect(acked.has(id)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
