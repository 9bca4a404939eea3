import { SimulatedClock } from 'xstate';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../actors/runtime/memory-store.ts';
import type { Store } from '../../../actors/runtime/store.ts';
import type { Journal } from '../../../actors/runtime/journal.ts';
import { offlineArchitect } from '../../../actors/tiers/planning/offline-architect.ts';
import { offlineDispatcher } from '../../../actors/tiers/planning/offline-dispatcher.ts';
import type { TierBrains } from '../../../machines/tiers/task-context.ts';
import type { DelegationRecord } from '../../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import type { TaskRequest } from '../../../protocol/tiers/task-request.ts';
import { TiersServiceImpl } from '../../../server/tiers/tiers-service.ts';
import type { TiersServiceOptions } from '../../../server/tiers/tiers-service-options.ts';
import type { TaskView } from '../../../server/tiers/tiers-service-api.ts';
import { stubSpecialists } from './stub-specialists.ts';

/** Journals and a store that outlive one service (a restart reopens them). */
export interface TiersData {
  store: Store;
  journal: Journal<RoutedRecord>;
  trees: Journal<DelegationRecord>;
  beads: Journal<unknown>;
  clock: SimulatedClock & { now(): number };
}

export function tiersData(): TiersData {
  const clock = new SimulatedClock() as SimulatedClock & { now(): number };
  clock.set(Date.parse('2026-01-01T00:00:00Z'));
  return {
    store: createMemoryStore(),
    journal: createMemoryJournal(),
    trees: createMemoryJournal(),
    beads: createMemoryJournal(),
    clock,
  };
}

/** A tiers service over `data`, with the offline planning brains and the stub fleet unless given. */
export function openTiers(
  data: TiersData,
  options: Partial<Omit<TiersServiceOptions, 'brains'>> & { brains?: Partial<TierBrains> } = {},
) {
  const { brains, ...rest } = options;
  return TiersServiceImpl.open({
    ...data,
    brains: { architect: offlineArchitect, dispatcher: offlineDispatcher, specialists: stubSpecialists(), ...brains },
    ...rest,
  });
}

/** Spec 002's running example as an HTTP task. */
export const BINARY_SEARCH_TASK: TaskRequest = {
  objective: 'Implement binary search with edge case handling',
  problem: {
    problem_id: 'leetcode-704',
    statement:
      'Given a sorted array of integers nums and an integer target, return the index of target in nums, or -1 if it is not found.',
    function_name: 'search',
    language: 'javascript',
    test_cases: [
      { input: [[-1, 0, 3, 5, 9, 12], 9], expected: 4 },
      { input: [[-1, 0, 3, 5, 9, 12], 2], expected: -1 },
      { input: [[], 5], expected: -1 },
    ],
  },
  constraints: ['Return -1 if not found'],
};

/** Resolves once the task settled (ended, or waits for its user), with its view. */
export async function settledTask(service: TiersServiceImpl, user: string, taskId: string): Promise<TaskView> {
  const controller = new AbortController();
  const stream = service.events(user, taskId, { untilSettled: true, signal: controller.signal });
  if (!stream) throw new Error(`No task ${taskId} for ${user}`);
  for await (const event of stream) if (event.type === 'settled') break;
  return (await service.get(user, taskId))!;
}

/** Lets every pending promise and I/O callback run (no time passes). */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the simulated clock forward `ms` in `step`s, letting the work each step wakes run. */
export async function advance(clock: TiersData['clock'], ms: number, step = 500): Promise<void> {
  for (let passed = 0; passed < ms; passed += step) {
    clock.increment(Math.min(step, ms - passed));
    await flush();
  }
}
