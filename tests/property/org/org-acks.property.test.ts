import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { orgSystem, PROJECT_RUN } from '../../../machines/org/org-system.ts';
import { createSupervisorMachine } from '../../../machines/runtime/supervisor.ts';
import { isRoutedRecord, type JournalRecord } from '../../../protocol/runtime/ack-record.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { OrgAgent, OrgEnvelope } from '../../../protocol/org/envelope.ts';
import type { DeliveredMessage } from '../../../protocol/runtime/routing.ts';
import { stopAgent } from '../../support/ack-harness.ts';

const WORKERS: OrgAgent[] = ['product', 'frontend', 'backend', 'database', 'devops', 'sdte', 'growth'];

/** The chief's requests to random agents, some of them silenced (stopped) at random points of the run. */
const scenario = fc.record({
  requests: fc.array(
    fc.record({
      to: fc.constantFrom(...WORKERS),
      priority: fc.constantFrom('critical', 'high', 'medium', 'low') as fc.Arbitrary<OrgEnvelope['priority']>,
    }),
    { minLength: 1, maxLength: 8 },
  ),
  silenced: fc.array(fc.record({ agent: fc.constantFrom(...WORKERS), afterRequest: fc.nat(8) }), { maxLength: 3 }),
  timeoutMs: fc.integer({ min: 100, max: 5_000 }),
  retries: fc.integer({ min: 0, max: 3 }),
  /** How long the clock moves between requests (a delay before the next). */
  gaps: fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 8, maxLength: 8 }),
});

describe('acknowledged delivery in the org system, over random loss and delay (simulated clock)', () => {
  it('delivers each request to its receiver once, or escalates it to the chief, never both', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ requests, silenced, timeoutMs, retries, gaps }) => {
        const clock = new SimulatedClock();
        clock.set(Date.parse('2026-03-02T09:00:00Z'));
        const handled: string[] = [];
        const brain = fromPromise<unknown[], AgentBrainInput>(async ({ input }) => {
          const envelope = (input.input as DeliveredMessage).envelope as OrgEnvelope;
          if (envelope.message_type === 'request') handled.push(`${envelope.message_id}>${input.agent}`);
          return [];
        });
        const brains = Object.fromEntries(['chief-orchestration', ...WORKERS].map((a) => [a, brain])) as Record<
          OrgAgent,
          typeof brain
        >;
        const journal = createMemoryJournal<JournalRecord>();
        const system = orgSystem({ brains, acks: { backoff: { baseMs: 50, maxMs: 400 }, random: () => 0.5 } });
        const actor = createActor(createSupervisorMachine(system, { journal, now: () => clock.now() }), {
          input: {},
          clock,
        }).start();
        const child = (name: string) => (actor.getSnapshot().children as Record<string, AnyActorRef>)[name]!;
        const flush = async () => {
          for (let n = 0; n < 5; n += 1) await new Promise<void>((resolve) => setImmediate(resolve));
        };
        const sent: OrgEnvelope[] = [];
        const stopped = new Set<string>();
        for (const [n, request] of requests.entries()) {
          for (const { agent, afterRequest } of silenced)
            if (afterRequest === n && !stopped.has(agent)) {
              stopAgent(child(agent));
              stopped.add(agent);
            }
          const envelope = orgMessage({
            from: 'chief-orchestration',
            to: request.to,
            type: 'request',
            priority: request.priority,
            payload: { task_id: `t${n}`, content: { kind: 'noop' } },
            prdId: 'p',
            sprintId: 's',
            seed: [n],
            at: clock.now(),
            ack: { timeout_ms: timeoutMs, retry_count: retries },
          });
          sent.push(envelope);
          child(PROJECT_RUN).send({ type: 'project.send', envelopes: [envelope] });
          await flush();
          clock.increment(gaps[n]!);
          await flush();
        }
        for (let n = 0; n < (retries + 2) * 4; n += 1) {
          clock.increment(timeoutMs + 400);
          await flush();
        }
        const records = (await journal.read('p')).map((e) => e.data);
        const escalations = records.flatMap((r) =>
          isRoutedRecord(r) && (r.envelope as OrgEnvelope).message_type === 'escalation'
            ? [r.envelope as OrgEnvelope]
            : [],
        );
        for (const request of sent) {
          const receiver = request.destination_agent as string;
          const key = `${request.message_id}>${receiver}`;
          const times = handled.filter((h) => h === key).length;
          const escalated = escalations.filter(
            (e) =>
              e.message_type === 'escalation' &&
              e.context?.related_messages?.[0] === request.message_id &&
              e.payload.agents_involved.includes(receiver as OrgAgent),
          ).length;
          expect(times, `${key} handled at most once`).toBeLessThanOrEqual(1);
          expect(escalated, `${key} escalated at most once`).toBeLessThanOrEqual(1);
          expect(times + escalated, `${key} delivered once or escalated, never both`).toBe(1);
          if (escalated === 1) expect(stopped.has(receiver)).toBe(true);
        }
        actor.stop();
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
