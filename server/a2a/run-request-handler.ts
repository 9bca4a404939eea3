import type {
  AgentCard,
  CancelTaskRequest,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import {
  A2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { FINAL_STATES, type A2aMapping } from './a2a-mapping.ts';
import { a2aStateOf, inputOf } from './a2a-wire.ts';
import { RunExecutor, type Started } from './run-executor.ts';
import { ownerOf, type RunTaskStore } from './run-task-store.ts';
import { subscribeToTask } from './task-subscription.ts';

/** A system's error as the protocol's: bad input names its field, a state conflict is unsupported. */
export function protocolErrorOf(error: unknown): unknown {
  if (!(error instanceof RuntimeError)) return error;
  if (error.status === 400) return new RequestMalformedError(error.message);
  if (error.status === 404) return new TaskNotFoundError(error.message);
  if (error.status === 409) return new UnsupportedOperationError(error.message);
  return new A2AError(`${error.code}: ${error.message}`);
}

async function asProtocolErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw protocolErrorOf(error);
  }
}

/**
 * The SDK's `DefaultRequestHandler` over one system: the system's work is started (or resumed)
 * before the SDK's task begins, so bad input or a refusal is a protocol error rather than a failed
 * task; a cancel goes to the system, and the task reads `canceled` once the system says so; a
 * subscription follows the run itself, so it works after a restart too.
 */
export class RunRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly mapping: A2aMapping,
    private readonly tasks: RunTaskStore,
  ) {
    const started = new Map<string, Started>();
    super(card, tasks, new RunExecutor(mapping, tasks, started));
    this.started = started;
  }

  /** Work started for a message, until the executor takes it (by the message's id). */
  private readonly started: Map<string, Started>;

  override sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return asProtocolErrors(async () => super.sendMessage(await this.prepare(params, context), context));
  }

  override async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext) {
    const prepared = await asProtocolErrors(() => this.prepare(params, context));
    yield* super.sendMessageStream(prepared, context);
  }

  /** Follows the task's run from the system's view and journal (the SDK's only follows a stream of this process). */
  override resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse> {
    return subscribeToTask(this.mapping, this.tasks, params.id, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const link = await this.tasks.linkOf(params.id, context);
    if (!link) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    const view = await this.tasks.viewOf(link);
    // A final task: the SDK answers (a canceled one as it is, any other "not cancelable").
    if (FINAL_STATES.has(view?.state ?? a2aStateOf(link.last?.status?.state))) return super.cancelTask(params, context);
    if (!view || !this.mapping.cancel || link.ref === undefined)
      throw new TaskNotCancelableError(`Task ${params.id} cannot be cancelled: this agent's work runs to its end.`);
    await asProtocolErrors(() => this.mapping.cancel!(link.owner, link.ref!));
    // The system reads `canceled` now: the executor following the task publishes it and ends, and
    // the task is read from the system from here on (not from what the SDK saved so far).
    this.tasks.following.delete(params.id);
    const task = await this.tasks.load(params.id, context);
    const state = a2aStateOf(task?.status?.state);
    if (!task || state !== 'canceled')
      throw new TaskNotCancelableError(`Task ${params.id} ended ${state} before it could be cancelled.`);
    await this.tasks.save(task, context);
    return task;
  }

  /** Starts the work of a first message (handed to the executor by message id); checks a follow-up can resume. */
  private async prepare(params: SendMessageRequest, context: ServerCallContext): Promise<SendMessageRequest> {
    const message = params.message;
    if (!message?.messageId) throw new RequestMalformedError('message.messageId is required.');
    if (message.taskId) {
      const link = await this.tasks.linkOf(message.taskId, context);
      if (!link) throw new TaskNotFoundError(`Task not found: ${message.taskId}`);
      const view = await this.tasks.viewOf(link);
      if (view?.state !== 'input-required' || !this.mapping.resume)
        throw new UnsupportedOperationError(
          `Task ${message.taskId} is ${view?.state ?? 'over'}, not waiting for input: send a message without taskId to start new work.`,
        );
      this.mapping.checkReply?.(inputOf(message));
      return params;
    }
    const request = this.mapping.parse(inputOf(message));
    const started = await this.mapping.start({
      owner: ownerOf(context),
      request,
      ...(message.contextId ? { contextId: message.contextId } : {}),
    });
    this.started.set(message.messageId, started);
    return { ...params, message: { ...message, contextId: started.contextId } };
  }
}
