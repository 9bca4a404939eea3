/**
 * Org bench (issue 14): acknowledged v2.0 requests per second (each journaled with its ack
 * deadline, delivered asking for an ack, acked by the runtime when the receiver takes it, the ack
 * journaled) against the same supervisor routing plain notifications (no ack), in the same run,
 * over a memory journal and brains that answer at once. Reported as a ratio.
 */
import { createActor, fromPromise, type AnyActorRef } from 'xstate';
import { createMemoryJournal } from '../actors/runtime/memory-journal.ts';
import { orgMessage } from '../actors/org/org-envelope.ts';
import { orgSystem, PROJECT_RUN } from '../machines/org/org-system.ts';
import { createSupervisorMachine } from '../machines/runtime/supervisor.ts';
import type { JournalRecord } from '../protocol/runtime/ack-record.ts';
import type { AgentBrainInput } from '../protocol/runtime/agent-report.ts';
import type { OrgAgent } from '../protocol/org/envelope.ts';

const MESSAGES = 4_200;
const AGENTS: OrgAgent[] = [
  'chief-orchestration',
  'product',
  'frontend',
  'backend',
  'database',
  'devops',
  'sdte',
  'growth',
];
const TARGETS: OrgAgent[] = ['product', 'frontend', 'backend', 'database', 'devops', 'sdte', 'growth'];

async function rate(type: 'request' | 'notification'): Promise<number> {
  let handled = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const brain = fromPromise<unknown[], AgentBrainInput>(async () => {
    handled += 1;
    if (handled === MESSAGES) done();
    return [];
  });
  const brains = Object.fromEntries(AGENTS.map((a) => [a, brain])) as Record<OrgAgent, typeof brain>;
  const journal = createMemoryJournal<JournalRecord>();
  const actor = createActor(createSupervisorMachine(orgSystem({ brains }), { journal }), { input: {} }).start();
  const run = (actor.getSnapshot().children as Record<string, AnyActorRef>)[PROJECT_RUN]!;
  const at = Date.now();
  const envelopes = Array.from({ length: MESSAGES }, (_, n) =>
    orgMessage({
      from: 'chief-orchestration',
      to: TARGETS[n % TARGETS.length]!,
      type,
      priority: 'medium',
      payload: { task_id: `t${n}`, content: { kind: 'noop' } },
      prdId: 'bench',
      sprintId: 's',
      seed: [type, n],
      at,
    }),
  );
  const started = performance.now();
  // Bursts of 40 per agent: within each mailbox's bound (64), so nothing is throttled.
  const burst = 40 * TARGETS.length;
  for (let n = 0; n < MESSAGES; n += burst) {
    run.send({ type: 'project.send', envelopes: envelopes.slice(n, n + burst) });
    while (handled < Math.min(n + burst, MESSAGES)) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  actor.stop();
  return MESSAGES / seconds;
}

export async function runOrgBench() {
  await rate('notification'); // warm-up
  const routed = await rate('notification');
  const acknowledged = await rate('request');
  const ratio = acknowledged / routed;
  return {
    messages: MESSAGES,
    routed_per_s: Math.round(routed),
    acknowledged_per_s: Math.round(acknowledged),
    ratio: Number(ratio.toFixed(3)),
    note: 'acknowledged requests (ack deadline and ack journaled, redelivery armed) vs plain notifications, same supervisor and run',
    pass: ratio > 0.2,
  };
}
