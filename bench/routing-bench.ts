/**
 * Routing throughput: envelopes/s through the supervisor (validation, dedup and a file journal
 * on) against bare XState parent-to-child `sendTo`, in the same process and run.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assign, createActor, sendTo, setup, waitFor, type AnyActorRef } from 'xstate';
import { z } from 'zod';
import { openFileJournal } from '../actors/runtime/file-journal.ts';
import { createSupervisorMachine } from '../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../protocol/runtime/routing.ts';

const counter = setup({ types: { context: {} as { count: number } } }).createMachine({
  context: { count: 0 },
  on: { '*': { actions: assign({ count: ({ context }) => context.count + 1 }) } },
});

const bareParent = setup({ actors: { counter } }).createMachine({
  invoke: { src: 'counter', id: 'sink' },
  on: { forward: { actions: sendTo('sink', ({ event }) => ({ type: 'deliver', envelope: (event as any).envelope })) } },
});

const BenchEnvelopeSchema = z.strictObject({
  message_id: z.uuid(),
  from_agent: z.enum(['SOURCE', 'SINK']),
  to_agent: z.enum(['SOURCE', 'SINK']),
  data_type: z.literal('reading'),
  payload: z.strictObject({ sensor: z.string(), value: z.number(), unit: z.enum(['kg', 'kcal']) }),
  run_id: z.string(),
  timestamp: z.iso.datetime(),
});

function envelopes(count: number) {
  const timestamp = new Date().toISOString();
  return Array.from({ length: count }, (_, n) => ({
    message_id: randomUUID(),
    from_agent: 'SOURCE',
    to_agent: 'SINK',
    data_type: 'reading',
    payload: { sensor: 'scale', value: n, unit: 'kg' },
    run_id: `run-${n % 8}`,
    timestamp,
  }));
}

/**
 * Envelopes/s until the sink has counted `count`. The sink is watched before the first send, on
 * both sides: bare XState delivers everything inside `send()`, and watching only after it would
 * spare the bare side the per-delivery check that the supervised side pays.
 */
async function timeDelivery(sink: AnyActorRef, count: number, send: () => void): Promise<number> {
  const started = performance.now();
  const delivered = waitFor(sink, (s) => s.context.count >= count, { timeout: 120_000 });
  send();
  await delivered;
  return count / ((performance.now() - started) / 1000);
}

async function bare(batch: ReturnType<typeof envelopes>) {
  const actor = createActor(bareParent).start();
  const rate = await timeDelivery(actor.getSnapshot().children.sink as AnyActorRef, batch.length, () => {
    for (const envelope of batch) actor.send({ type: 'forward', envelope } as any);
  });
  actor.stop();
  return rate;
}

async function supervised(batch: ReturnType<typeof envelopes>, dir: string) {
  const journal = await openFileJournal<RoutedRecord>(dir);
  const machine = createSupervisorMachine(
    {
      name: 'bench',
      envelope: BenchEnvelopeSchema,
      routes: [{ from: 'SOURCE', to: 'SINK', data_type: 'reading' }],
      agents: { SINK: counter },
      partitionOf: (e) => String(e.run_id),
    },
    { journal },
  );
  const actor = createActor(machine, { input: {} }).start();
  const rate = await timeDelivery(
    (actor.getSnapshot().children as Record<string, AnyActorRef>).SINK!,
    batch.length,
    () => {
      for (const envelope of batch) actor.send({ type: 'supervisor.send', envelope });
    },
  );
  actor.stop();
  await journal.close();
  return rate;
}

/**
 * Envelopes/s through a supervisor with validation, dedup and a file journal in `dir`: the
 * routing rate other benches compare their durable work to, measured in their own process.
 */
export function supervisedRoutingRate(messages: number, dir: string): Promise<number> {
  return supervised(envelopes(messages), dir);
}

/**
 * Runs `rounds` pairs of timings, bare and supervised back to back (which goes first alternates,
 * so neither always inherits the other's garbage), and takes the median of the per-pair ratios:
 * on a shared host a slow spell then slows both sides of a pair instead of skewing one median.
 */
export async function runRoutingBench(options: { messages?: number; rounds?: number } = {}) {
  const messages = options.messages ?? 20_000;
  const rounds = options.rounds ?? 9;
  const dir = await mkdtemp(join(tmpdir(), 'routing-bench-'));
  const bareRates: number[] = [];
  const supervisedRates: number[] = [];
  const ratios: number[] = [];
  try {
    for (let warm = 0; warm < 3; warm++) {
      await bare(envelopes(5_000));
      await supervised(envelopes(5_000), join(dir, `warm-${warm}`));
    }
    for (let round = 0; round < rounds; round++) {
      const bareFirst = round % 2 === 0;
      const before = bareFirst ? await bare(envelopes(messages)) : 0;
      const supervisedRate = await supervised(envelopes(messages), join(dir, `round-${round}`));
      const bareRate = bareFirst ? before : await bare(envelopes(messages));
      bareRates.push(bareRate);
      supervisedRates.push(supervisedRate);
      ratios.push(supervisedRate / bareRate);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(ratios);
  return {
    name: 'routing',
    messages,
    rounds,
    bareXstate: { envelopesPerSec: Math.round(median(bareRates)) },
    supervisor: { envelopesPerSec: Math.round(median(supervisedRates)) },
    ratio: Number(ratio.toFixed(3)),
    ratioRange: [Number(Math.min(...ratios).toFixed(3)), Number(Math.max(...ratios).toFixed(3))],
    target: 'supervisor >= 0.5 x bare XState (median of paired rounds)',
    pass: ratio >= 0.5,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await runRoutingBench(), null, 2));
}
