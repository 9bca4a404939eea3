import { ConflictError, NotFoundError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { ClarificationRequestSchema, TaskRequestSchema } from '../../protocol/tiers/task-request.ts';
import type { A2aInput, A2aMapping, A2aState, A2aView } from '../a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../a2a/a2a-status.ts';
import { parseInput } from '../a2a/parse-input.ts';
import { outcomeArtifacts } from './a2a-artifacts.ts';
import type { TaskEvents } from './task-events.ts';
import type { TaskView, TiersService } from './tiers-service-api.ts';

/** What the mapping uses of the tiers service (embedded, or on Restate). */
export type TiersA2aService = Pick<TiersService, 'submit' | 'get' | 'beads' | 'cancel' | 'clarify'> & {
  hub: TaskEvents;
};

/** The outcomes by which the fleet refuses a task it cannot take on (nothing was attempted). */
const REFUSALS = new Set(['unsupported_problem', 'unsupported_language']);

/** The reason a CancelTask gives the tiers (spec 002's cancellation, with cascade). */
const CANCEL_REASON = 'Cancelled by the A2A client (CancelTask).';

/** A tiers task's status as an A2A state (README, "A2A": the decisions). */
export function tiersStateOf(view: Pick<TaskView, 'status' | 'outcome' | 'waiting_for_user'>): A2aState {
  switch (view.status) {
    case 'working':
    case 'throttled':
      return 'working';
    case 'success':
      return 'completed';
    case 'cancelled':
      return 'canceled';
    case 'needs_clarification':
      return view.waiting_for_user ? 'input-required' : 'failed';
    case 'failed':
      return REFUSALS.has(view.outcome?.error_type ?? '') ? 'rejected' : 'failed';
    default:
      // partial, blocked, timeout: the solution did not pass everything it was asked to.
      return 'failed';
  }
}

/** An ended task's message: the Monitor's summary, and its error when it has one. */
function outcomeMessage(view: TaskView): string | undefined {
  if (!view.outcome) return undefined;
  const { summary, error_type, error_detail } = view.outcome;
  return error_type ? `${view.status}: ${summary} (${error_type}: ${error_detail ?? ''})` : summary;
}

const statusOf = a2aStatusOf<TaskView>({
  state: tiersStateOf,
  messages: {
    'input-required': (view) =>
      `${view.waiting_for_user!.question} Reply to this task with the answer (text, or a data part { "answer": ... }).`,
    completed: outcomeMessage,
    failed: outcomeMessage,
    rejected: outcomeMessage,
    canceled: outcomeMessage,
  },
});

/** A first message: the task body as a `data` part; text beside it is its `objective` when the body has none. */
function taskOf(input: A2aInput) {
  const data = input.data;
  const withObjective =
    input.text && data && typeof data === 'object' && !Array.isArray(data) && !('objective' in data)
      ? { ...data, objective: input.text }
      : data;
  if (withObjective === undefined)
    throw new ValidationError(
      'A tiers task needs a data part with the body of POST /tiers/tasks ({ objective, problem: { statement, function_name, language: "javascript", test_cases } }): text alone gives no function or tests to check a solution against.',
      [{ path: 'data', message: 'Missing data part' }],
    );
  return parseInput(TaskRequestSchema, withObjective, 'data');
}

/** A reply to the task's question: its text, or `{ answer }` as data (`POST …/clarification`'s body). */
function answerOf(input: A2aInput): string {
  return input.data !== undefined
    ? parseInput(ClarificationRequestSchema, input.data, 'data').answer
    : parseInput(ClarificationRequestSchema.shape.answer, input.text, 'text');
}

/**
 * Tiered delegation (spec 002) over A2A: a `data` part with the body of `POST /tiers/tasks`
 * starts a task (its own context); the Monitor's outcome gives the artifacts (the solution's
 * `code`, its `test_result`, the test plan and review, each `tiers/<type>`); a question that
 * reaches the user is `input-required` and a reply answers it (`POST …/clarification`); the
 * fleet's refusals (`unsupported_problem`, `unsupported_language`) are `rejected`, every other
 * unsuccessful end `failed`; CancelTask cancels with cascade and ends `canceled`.
 */
export function tiersA2a(service: TiersA2aService): A2aMapping {
  const read = async (owner: string, taskId: string): Promise<A2aView | undefined> => {
    const view = await service.get(owner, taskId);
    if (!view) return undefined;
    const status = statusOf(view);
    const artifacts =
      status.state === 'working' || !view.outcome
        ? []
        : await outcomeArtifacts(view.outcome, (key) => service.beads(owner, taskId, key));
    return { ...status, artifacts };
  };
  return {
    description:
      'Spec 002: four tiers (Monitor, Architect, Dispatcher, a fleet of specialists) solve a JavaScript programming problem; every solution runs against its tests in a sandbox.',
    skills: [
      {
        id: 'tiers-solve',
        name: 'Solve a programming problem',
        description:
          'Send a data part with the body of POST /tiers/tasks (objective, problem with function_name and test_cases); text beside it is the objective. Artifacts: the code and its test result. A question comes back as input-required: reply with the answer.',
        tags: ['programming', 'javascript', 'delegation'],
        examples: [
          '{"objective": "Implement binary search", "problem": {"statement": "Return the index of target in sorted nums, or -1.", "function_name": "search", "language": "javascript", "test_cases": [{"input": [[-1, 0, 3, 5, 9, 12], 9], "expected": 4}, {"input": [[5], 2], "expected": -1}]}}',
          'For a question, name the expected value: "for [1, 2, 3] and 2 the answer is 1"',
        ],
      },
    ],
    parse: taskOf,
    async start({ owner, request }) {
      const { task_id } = await service.submit(owner, request as ReturnType<typeof taskOf>);
      return { ref: task_id, contextId: task_id };
    },
    view: read,
    async follow(_owner, taskId, onChange) {
      return service.hub.tap((id) => {
        if (id === taskId) onChange();
      });
    },
    checkReply: (input) => void answerOf(input),
    async resume(owner, taskId, input) {
      const answer = await service.clarify(owner, taskId, answerOf(input));
      if (answer === undefined) throw new NotFoundError(`Tiers task ${taskId}`);
      if (answer === 'not_waiting')
        throw new ConflictError('not_waiting_for_clarification', `Task ${taskId} is not waiting for an answer.`);
    },
    async cancel(owner, taskId) {
      let stop = () => undefined as unknown;
      // Heard from before the cancellation goes, so its `settled` cannot slip by.
      const settled = new Promise<void>((resolve) => {
        stop = service.hub.tap((id, event) => {
          if (id === taskId && event.type === 'settled') resolve();
        });
      });
      try {
        const answer = await service.cancel(owner, taskId, { reason: CANCEL_REASON, cascade: true });
        if (answer === undefined) throw new NotFoundError(`Tiers task ${taskId}`);
        if (!('finished' in answer) || !answer.finished) return await settled;
      } finally {
        stop();
      }
    },
  };
}
