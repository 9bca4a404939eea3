import {
  accuracyFor,
  UnassignableSubtaskError,
  type Assignment,
  type DispatcherBrain,
  type DispatcherInput,
  type SpecialistStatus,
} from './dispatcher.ts';
import type { PlannedSubtask } from './plan.ts';

/** Priorities 0..2 (critical, high, normal) exploit proven specialists; 3..4 (low, backlog) explore unproven ones. */
export const EXPLORE_FROM_PRIORITY = 3;

/** The routing order as the README shows it. */
export const ROUTING_ORDER: readonly string[] = [
  "candidates: the specialists whose task types include the subtask's, minus those `exclude` names for it",
  'hint: the `specialist_hint`, if it is a candidate and available',
  'availability: only available candidates (none left: an error naming the subtask)',
  'load: the lowest load, counting the subtasks assigned earlier in the same call',
  `priority: a task of priority 0-${EXPLORE_FROM_PRIORITY - 1} prefers specialists with a known accuracy; ${EXPLORE_FROM_PRIORITY}-4 prefers unproven ones, so the Monitor learns them`,
  'accuracy: the best past accuracy for the task type (else overall)',
  'name: alphabetical, so the same input always gives the same routing',
];

interface Candidate {
  status: SpecialistStatus;
  load: number;
  accuracy: number | null;
}

/** Sorts best first by load, then the priority's preference for known or unknown accuracy, then accuracy, then name. */
function compare(priority: number) {
  const explore = priority >= EXPLORE_FROM_PRIORITY;
  return (a: Candidate, b: Candidate): number => {
    if (a.load !== b.load) return a.load - b.load;
    const aKnown = a.accuracy !== null;
    const bKnown = b.accuracy !== null;
    if (aKnown !== bKnown) return (aKnown ? -1 : 1) * (explore ? -1 : 1);
    if (a.accuracy !== null && b.accuracy !== null && a.accuracy !== b.accuracy) return b.accuracy - a.accuracy;
    return a.status.name < b.status.name ? -1 : a.status.name > b.status.name ? 1 : 0;
  };
}

function assign(subtask: PlannedSubtask, input: DispatcherInput, loads: Map<string, number>): Assignment {
  const excluded = new Set(input.exclude?.[subtask.key] ?? []);
  const able = input.specialists.filter((s) => s.task_types.includes(subtask.task_type));
  if (able.length === 0)
    throw new UnassignableSubtaskError(subtask.key, subtask.task_type, `no specialist handles ${subtask.task_type}`);
  const candidates = able.filter((s) => !excluded.has(s.name));
  if (candidates.length === 0)
    throw new UnassignableSubtaskError(
      subtask.key,
      subtask.task_type,
      `every specialist that handles it is excluded (${[...excluded].join(', ')})`,
    );
  const available = candidates.filter((s) => s.available);
  if (available.length === 0)
    throw new UnassignableSubtaskError(
      subtask.key,
      subtask.task_type,
      `no specialist that handles it is available (${candidates.map((s) => s.name).join(', ')})`,
    );
  const hinted = available.find((s) => s.name === subtask.specialist_hint);
  if (hinted) return { key: subtask.key, specialist: hinted.name, reason: `hint: ${hinted.name} was asked for` };
  const ranked = available
    .map((status) => ({
      status,
      load: loads.get(status.name) ?? status.load,
      accuracy: accuracyFor(status, subtask.task_type),
    }))
    .sort(compare(input.priority));
  const best = ranked[0]!;
  const hint = subtask.specialist_hint;
  const why = hint && !available.some((s) => s.name === hint) ? `hint ${hint} not usable; ` : '';
  const accuracy = best.accuracy === null ? 'unproven' : `accuracy ${best.accuracy.toFixed(2)}`;
  return {
    key: subtask.key,
    specialist: best.status.name,
    reason: `${why}load ${best.load}, ${accuracy}, priority ${input.priority} (of ${available.length} available)`,
  };
}

/** Assigns every subtask in plan order; throws {@link UnassignableSubtaskError} naming the first that cannot be. */
export function routeSubtasks(input: DispatcherInput): Assignment[] {
  const loads = new Map(input.specialists.map((s) => [s.name, s.load]));
  return input.subtasks.map((subtask) => {
    const assignment = assign(subtask, input, loads);
    loads.set(assignment.specialist, (loads.get(assignment.specialist) ?? 0) + 1);
    return assignment;
  });
}

/**
 * The offline ROUTING_DISPATCHER: routes each subtask by {@link ROUTING_ORDER} (hint, availability,
 * load, priority, past accuracy), deterministically; re-routing passes `exclude`.
 *
 * @example
 * const { assignments } = await offlineDispatcher.route({ subtasks: plan.subtasks, specialists, priority: 1 });
 */
export const offlineDispatcher: DispatcherBrain = {
  route(input) {
    try {
      return Promise.resolve({ assignments: routeSubtasks(input) });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  },
};
