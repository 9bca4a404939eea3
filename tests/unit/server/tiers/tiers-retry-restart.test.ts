import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { openFileJournal } from '../../../../actors/runtime/file-journal.ts';
import type { Journal } from '../../../../actors/runtime/journal.ts';
import { createMemoryStore } from '../../../../actors/runtime/memory-store.ts';
import type { SpecialistRequestShape } from '../../../../machines/tiers/task-context.ts';
import type { DelegationData } from '../../../../machines/tiers/tier-steps.ts';
import type { DelegatedRecord, DelegationRecord } from '../../../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { DelegationPayload } from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import {
  advance,
  BINARY_SEARCH_TASK,
  flush,
  openTiers,
  settledTask,
  type TiersData,
} from '../../../support/tiers/tiers-harness.ts';

/*
 * A retry waiting out its backoff when the process stops: its due time is journaled with its
 * delegation, and the service reopened over the same file journals re-arms it for that time.
 */

const dirs: string[] = [];
const open: { service: TiersServiceImpl; data: TiersData }[] = [];
afterEach(async () => {
  for (const { service, data } of open.splice(0)) await stop(service, data);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The three journals on disk under `dir`, opened again by each "process". */
async function journalsIn(dir: string) {
  return {
    journal: await openFileJournal<RoutedRecord>(join(dir, 'tiers')),
    trees: await openFileJournal<DelegationRecord>(join(dir, 'tiers-trees')),
    beads: await openFileJournal<unknown>(join(dir, 'tiers-beads')),
  };
}

async function stop(service: TiersServiceImpl, data: TiersData): Promise<void> {
  await service.close();
  for (const journal of [data.journal, data.trees, data.beads] as Journal<unknown>[]) await journal.close();
}

const busy = {
  status: 'failed' as const,
  summary: 'sandbox busy',
  confidence: 0,
  artifacts: [],
  log: ['busy'],
  error_type: 'sandbox_busy',
  error_detail: 'sandbox busy, try again',
  recoverable: true,
};

/** A solver that fails recoverably on its first call and solves afterwards, counting its calls. */
function flakySolver() {
  const calls: SpecialistRequestShape[] = [];
  const run = (request: SpecialistRequestShape) => (calls.push(request), calls.length === 1 ? busy : solved(request));
  return { calls, run };
}

/** Lets the work of the task run until `ready` holds: file journals sync on real I/O, no clock time passes. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let round = 0; round < 2_000; round++) {
    if (await ready()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`Still waiting for ${what}.`);
}

/** Lets everything the task's run started reach the journal (and what that wakes), with no clock time passing. */
async function idle(service: TiersServiceImpl, taskId: string): Promise<void> {
  const run = () =>
    (service as unknown as { host: { get(id: string): { quiescent(): Promise<void> } | undefined } }).host.get(taskId);
  for (let round = 0; round < 20; round++) {
    await flush(10);
    await run()?.quiescent();
  }
}

const isSolve = (m: TiersEnvelope) =>
  'task_type' in m.payload && (m.payload as DelegationPayload).task_data['subtask_key'] === 'solve';

/**
 * Submits a task whose first solve fails recoverably and stops the "process" while its retry
 * waits out its backoff. Returns the data dir, the task, the retry's id and its journaled due time.
 */
async function stopDuringBackoff(clock: TiersData['clock'], firstSolver = flakySolver()) {
  const dir = await mkdtemp(join(tmpdir(), 'tiers-retry-'));
  dirs.push(dir);
  const store = createMemoryStore();
  const data: TiersData = { store, clock, ...(await journalsIn(dir)) };
  const specialists = stubSpecialists({ 'js-solver': firstSolver.run });
  const service = await openTiers(data, { brains: { specialists } });
  const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
  const solves = async () =>
    (await data.trees.read(task_id))
      .map((r) => r.data)
      .filter((r): r is DelegatedRecord => r.kind === 'delegated' && (r.data as DelegationData).key === 'solve');
  await until(async () => (await solves()).length === 2, 'the retry of the first solve');
  await idle(service, task_id);
  expect(firstSolver.calls).toHaveLength(1);
  const sent = (await service.messages('ada', task_id))!;
  const first = sent.find(isSolve)!;
  const retry = (await solves()).find((r) => r.id !== first.id);
  expect(retry).toBeDefined();
  const sendAt = (retry!.data as DelegationData).sendAt!;
  expect(sendAt).toBeGreaterThan(clock.now());
  expect(sent.some((m) => m.id === retry!.id)).toBe(false);
  return { dir, store, data, service, task_id, first, retryId: retry!.id, sendAt };
}

/** The same data dir and store in a new "process" (journals reopened from disk), solving at once. */
async function restart(dir: string, store: TiersData['store'], clock: TiersData['clock']) {
  const solver = { calls: [] as SpecialistRequestShape[] };
  const data: TiersData = { store, clock, ...(await journalsIn(dir)) };
  const specialists = stubSpecialists({ 'js-solver': (r) => (solver.calls.push(r), solved(r)) });
  const service = await openTiers(data, { brains: { specialists } });
  open.push({ service, data });
  return { service, data, solver };
}

function newClock(): TiersData['clock'] {
  const clock = new SimulatedClock() as TiersData['clock'];
  clock.set(Date.parse('2026-01-01T00:00:00Z'));
  return clock;
}

describe('tiers: a retry in its backoff across a restart', () => {
  it('goes out at its journaled due time, not before, once, with a new id and the same correlation', async () => {
    const clock = newClock();
    const before = await stopDuringBackoff(clock);
    // Part of the backoff passes while the process is down.
    await stop(before.service, before.data);
    const down = Math.floor((before.sendAt - clock.now()) / 2);
    clock.increment(down);
    const { service, solver } = await restart(before.dir, before.store, clock);
    await idle(service, before.task_id);
    const sentNow = async () => (await service.messages('ada', before.task_id))!.filter((m) => m.id === before.retryId);
    expect(await sentNow()).toEqual([]);
    await advance(clock, before.sendAt - 1 - clock.now(), 100);
    await idle(service, before.task_id);
    expect(clock.now()).toBe(before.sendAt - 1);
    expect(await sentNow()).toEqual([]);
    expect(solver.calls).toHaveLength(0);
    await advance(clock, 1);
    await until(async () => (await sentNow()).length > 0, 'the retry at its due time');
    const retries = await sentNow();
    expect(retries).toHaveLength(1);
    expect(retries[0]!.id).not.toBe(before.first.id);
    expect(retries[0]!.correlation_id).toBe(before.first.correlation_id);
    const view = await settledTask(service, 'ada', before.task_id);
    expect(view.status).toBe('success');
    expect(solver.calls).toHaveLength(1);
    const messages = (await service.messages('ada', before.task_id))!;
    expect(messages.filter((m) => m.id === before.retryId)).toHaveLength(1);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    expect(messages.filter(isSolve).map((m) => m.id)).toEqual([before.first.id, before.retryId]);
  });

  it('a due time that passed while the process was down sends the retry once, at the restart', async () => {
    const clock = newClock();
    const before = await stopDuringBackoff(clock);
    await stop(before.service, before.data);
    clock.increment(before.sendAt - clock.now() + 5_000);
    const { service, solver } = await restart(before.dir, before.store, clock);
    const view = await settledTask(service, 'ada', before.task_id);
    expect(view.status).toBe('success');
    expect(solver.calls).toHaveLength(1);
    const messages = (await service.messages('ada', before.task_id))!;
    expect(messages.filter((m) => m.id === before.retryId)).toHaveLength(1);
  });

  it('a cancelled task’s pending retry never goes out after the restart', async () => {
    const clock = newClock();
    const before = await stopDuringBackoff(clock);
    // The cancellation is journaled; the process may stop before or after the tiers handled it.
    expect(await before.service.cancel('ada', before.task_id, { reason: 'not needed', cascade: true })).toEqual({
      accepted: true,
    });
    await stop(before.service, before.data);
    const { service, solver } = await restart(before.dir, before.store, clock);
    const view = await settledTask(service, 'ada', before.task_id);
    expect(view.status).toBe('cancelled');
    await advance(clock, before.sendAt - clock.now() + 20_000, 500);
    await idle(service, before.task_id);
    const messages = (await service.messages('ada', before.task_id))!;
    expect(messages.some((m) => m.id === before.retryId)).toBe(false);
    expect(solver.calls).toHaveLength(0);
  });
});
