import { SimulatedClock } from 'xstate';
import { OFFLINE_BRAINS } from '../../../actors/coscientist/agents/offline-brains.ts';
import type { ServiceClock } from '../../../actors/runtime/clock.ts';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { ResourceLocks } from '../../../actors/runtime/resource-locks.ts';
import { openResearch, type ResearchServices } from '../../../machines/coscientist/open-research.ts';
import type { GoalContent } from '../../../protocol/coscientist/memory-content.ts';

/** A goal's content with defaults (liver fibrosis, 3 iterations of 4 hypotheses). */
export function goalOf(overrides: Partial<GoalContent> = {}): GoalContent {
  return {
    goal: 'Find epigenetic targets that reverse liver fibrosis',
    domain: 'liver_fibrosis',
    preferences: [],
    constraints: [],
    iterations: 3,
    hypotheses_per_iteration: 4,
    ...overrides,
  };
}

/** Services over memory journals and a simulated clock (errors collected, not printed). */
export function testServices(
  overrides: Partial<ResearchServices> = {},
): ResearchServices & { errors: unknown[]; clock: ServiceClock & SimulatedClock } {
  const clock = new SimulatedClock() as SimulatedClock & ServiceClock;
  const errors: unknown[] = [];
  return {
    memoryJournal: createMemoryJournal(),
    taskJournal: createMemoryJournal(),
    messageJournal: createMemoryJournal(),
    clock,
    locks: new ResourceLocks({ clock }),
    brains: OFFLINE_BRAINS,
    onError: (error) => errors.push(error),
    errors,
    ...overrides,
  } as ResearchServices & { errors: unknown[]; clock: ServiceClock & SimulatedClock };
}

/** Opens a new goal and waits until it is completed or stopped (every timer is on the simulated clock). */
export async function runGoal(researchId: string, services: ResearchServices, goal = goalOf()) {
  const research = await openResearch(researchId, services, goal);
  await research.run.settled();
  return research;
}

/** Resolves when `research` enters `state` (checked on every change the services report). */
export function stateWatcher() {
  const waiters: { state: string; resolve: () => void }[] = [];
  const onState = (_id: string, record: { state: string }) => {
    for (const waiter of waiters.filter((w) => w.state === record.state)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const reached = (state: string) => new Promise<void>((resolve) => waiters.push({ state, resolve }));
  return { onState, reached };
}

/** The mean review score of the hypotheses GENERATION wrote in each iteration. */
export async function generationScores(research: {
  memory: import('../../../actors/coscientist/memory/context-memory.ts').ContextMemory;
}) {
  const reviews = new Map(
    (await research.memory.list('review')).map((e) => [e.content.hypothesis_id as string, e.content.overall as number]),
  );
  const byIteration = new Map<number, number[]>();
  for (const entry of await research.memory.list('hypothesis')) {
    if (entry.content.origin !== 'generation') continue;
    const score = reviews.get(entry.entry_id);
    if (score === undefined) continue;
    const n = entry.content.iteration as number;
    byIteration.set(n, [...(byIteration.get(n) ?? []), score]);
  }
  return [...byIteration.entries()].sort(([a], [b]) => a - b).map(([, s]) => s.reduce((x, y) => x + y, 0) / s.length);
}
