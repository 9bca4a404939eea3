import { ConflictError, toErrorIssues, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { TaskSpecSchema, type TaskSpec, type TaskSpecInput } from '../../protocol/runtime/task-spec.ts';
import { findDependencyCycle } from './dependency-cycle.ts';

/** What a submission is checked against. */
export interface SubmissionContext {
  /** The agent types that have workers. */
  agentTypes: readonly string[];
  /** Whether a task id is already in the queue (or being submitted). */
  known: (taskId: string) => boolean;
  maxQueued: number;
}

/**
 * Checks a batch of tasks before anything is written, and returns them parsed: each valid
 * (`TaskSpecSchema`), a new id (once in the batch), of a declared agent type, depending on known
 * tasks or on others of the batch, without a cycle. Throws the first problem found, saying how to
 * fix it.
 *
 * @example
 * const specs = validateSubmission(input, { agentTypes: ['reviewer'], known: (id) => book.has(id), maxQueued: 100 });
 */
export function validateSubmission(inputs: readonly TaskSpecInput[], context: SubmissionContext): TaskSpec[] {
  if (inputs.length === 0) {
    throw new ValidationError('Submit at least one task.', [{ path: 'tasks', message: 'empty' }]);
  }
  if (inputs.length > context.maxQueued) {
    throw new ValidationError(
      `A batch of ${inputs.length} tasks can never fit a queue of at most ${context.maxQueued}: split it.`,
      [{ path: 'tasks', message: `more than ${context.maxQueued} tasks` }],
      'batch_too_large',
    );
  }
  const specs = inputs.map((input, i) => {
    const parsed = TaskSpecSchema.safeParse(input);
    if (!parsed.success) {
      const issues = toErrorIssues(parsed.error.issues).map((issue) => ({
        ...issue,
        path: `tasks.${i}.${issue.path}`,
      }));
      throw new ValidationError(`Invalid task: ${issues.map((x) => `${x.path}: ${x.message}`).join('; ')}`, issues);
    }
    return parsed.data;
  });
  const batch = new Map<string, readonly string[]>();
  for (const spec of specs) {
    if (batch.has(spec.task_id) || context.known(spec.task_id)) {
      throw new ConflictError(
        'task_exists',
        `Task ${spec.task_id} was already submitted: give each task a new task_id (read the existing one with get).`,
      );
    }
    batch.set(spec.task_id, spec.dependencies);
  }
  for (const spec of specs) {
    if (!context.agentTypes.includes(spec.agent_type)) {
      throw new ValidationError(
        `Task ${spec.task_id} names agent type ${spec.agent_type}, which has no workers: use one of ${context.agentTypes.join(', ')}, or declare its workers when opening the queue.`,
        [{ path: 'agent_type', message: 'unknown agent type' }],
        'unknown_agent_type',
      );
    }
    for (const dependency of spec.dependencies) {
      if (!batch.has(dependency) && !context.known(dependency)) {
        throw new ValidationError(
          `Task ${spec.task_id} depends on ${dependency}, which is not in the queue (or was completed long enough ago to be forgotten): submit ${dependency} first or in the same batch, or drop it from dependencies.`,
          [{ path: 'dependencies', message: `unknown task ${dependency}` }],
          'unknown_dependency',
        );
      }
    }
  }
  const cycle = findDependencyCycle(batch);
  if (cycle) {
    throw new ValidationError(
      `These tasks depend on each other in a cycle, so none could ever start: ${cycle.join(' -> ')}. Remove one of these dependencies.`,
      [{ path: 'dependencies', message: `cycle ${cycle.join(' -> ')}` }],
      'dependency_cycle',
    );
  }
  return specs;
}
