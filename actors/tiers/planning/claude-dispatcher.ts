import { z } from 'zod';
import type { AnthropicAccess } from '../../models/model-backends.ts';
import { createAnthropicProvider } from '../../models/anthropic-provider.ts';
import { getModelConfig } from '../../models/model-registry.ts';
import type { Assignment, DispatcherBrain, DispatcherInput } from './dispatcher.ts';
import { callForcedTool, ModelAnswerError } from '../../models/forced-tool-call.ts';
import { ROUTING_ORDER, routeSubtasks } from './offline-dispatcher.ts';

/** `submit_assignments`' input: one assignment per subtask, with a reason. */
export const AssignmentsAnswerSchema = z.strictObject({
  assignments: z.array(
    z.strictObject({ key: z.string().min(1), specialist: z.string().min(1), reason: z.string().min(1) }),
  ),
});

const SYSTEM = [
  'You are the ROUTING_DISPATCHER of a tiered agent system (spec 002). Assign each subtask to one specialist',
  'that handles its task_type, is available and is not excluded for that subtask. Weigh the hint, load, the task priority',
  `(0 = critical .. 4 = backlog) and past accuracy; the offline order is: ${ROUTING_ORDER.join('; ')}.`,
  'Answer only by calling submit_assignments, with exactly one assignment per subtask key.',
].join(' ');

/** What is wrong with the model's assignments for this input; empty when each subtask has one usable specialist. */
export function assignmentFaults(input: DispatcherInput, assignments: readonly Assignment[]): string[] {
  const faults: string[] = [];
  const byName = new Map(input.specialists.map((s) => [s.name, s]));
  const keys = new Set(input.subtasks.map((s) => s.key));
  for (const assignment of assignments)
    if (!keys.has(assignment.key)) faults.push(`"${assignment.key}" is not a subtask`);
  for (const subtask of input.subtasks) {
    const mine = assignments.filter((a) => a.key === subtask.key);
    if (mine.length !== 1) {
      faults.push(`subtask "${subtask.key}" has ${mine.length} assignments, not 1`);
      continue;
    }
    const name = mine[0]!.specialist;
    const specialist = byName.get(name);
    if (!specialist) faults.push(`"${subtask.key}" went to ${name}, which is not in the fleet`);
    else if (!specialist.task_types.includes(subtask.task_type))
      faults.push(`"${subtask.key}" went to ${name}, which does not handle ${subtask.task_type}`);
    else if (!specialist.available) faults.push(`"${subtask.key}" went to ${name}, which is unavailable`);
    else if (input.exclude?.[subtask.key]?.includes(name))
      faults.push(`"${subtask.key}" went to ${name}, which is excluded for it`);
  }
  return faults;
}

/**
 * The ROUTING_DISPATCHER on Claude: one forced `submit_assignments` call, validated by its schema
 * and then against the fleet (each subtask once, to an able, available, non-excluded specialist;
 * else `ModelAnswerError` naming each fault). A subtask no specialist can take is refused before
 * any call, with the offline Dispatcher's `UnassignableSubtaskError`. Assignments come back in
 * plan order. Reports the call's tokens.
 *
 * @example
 * const dispatcher = backends.choose({ offline: () => offlineDispatcher, anthropic: (access) => claudeDispatcher(access) });
 */
export function claudeDispatcher(access: AnthropicAccess): DispatcherBrain {
  getModelConfig(access.model);
  const provider = createAnthropicProvider({ client: access.client });
  return {
    async route(input, signal) {
      routeSubtasks(input); // throws, naming the subtask, when no specialist could take it: no paid call for that
      const { value, tokens } = await callForcedTool({
        provider,
        model: access.model,
        system: SYSTEM,
        prompt: JSON.stringify({
          subtasks: input.subtasks.map(({ key, task_type, specialist_hint, depends_on }) => ({
            key,
            task_type,
            specialist_hint,
            depends_on,
          })),
          specialists: input.specialists,
          priority: input.priority,
          exclude: input.exclude ?? {},
        }),
        tool: {
          name: 'submit_assignments',
          description: 'Submit one assignment (subtask key, specialist, reason) per subtask.',
          schema: AssignmentsAnswerSchema,
        },
        signal,
      });
      const faults = assignmentFaults(input, value.assignments);
      if (faults.length > 0) throw new ModelAnswerError('submit_assignments', faults.join('; '), tokens);
      const order = new Map(input.subtasks.map((s, i) => [s.key, i]));
      const assignments = [...value.assignments].sort((a, b) => order.get(a.key)! - order.get(b.key)!);
      return { assignments, tokens };
    },
  };
}
