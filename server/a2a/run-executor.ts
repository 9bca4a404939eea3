import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { A2aMapping } from './a2a-mapping.ts';
import { inputOf, taskStateOf } from './a2a-wire.ts';
import { ownerOf, type RunTaskStore } from './run-task-store.ts';
import { followTask, statusUpdate } from './task-updates.ts';

/** The system's handle on a task's work and the context it belongs to (`A2aMapping.start`). */
export interface Started {
  ref: string;
  contextId: string;
}

/**
 * The SDK's agent executor over a system's mapping: a first message starts the system's work, a
 * follow-up resumes it; then it follows the run and publishes each new or changed artifact and
 * each change of state, in the order the run made them, until the task is final or needs input.
 */
export class RunExecutor implements AgentExecutor {
  constructor(
    private readonly mapping: A2aMapping,
    private readonly tasks: RunTaskStore,
    /** Work the request handler started, by the id of the message that started it. */
    private readonly started: Map<string, Started>,
  ) {}

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const owner = ownerOf(request.context);
    const { taskId } = request;
    // Until the handler saved its last event, the task reads as published (see RunTaskStore.following).
    this.tasks.following.add(taskId);
    try {
      await this.publish(request, bus, owner);
    } catch (error) {
      this.tasks.following.delete(taskId);
      throw error;
    }
  };

  private async publish(request: RequestContext, bus: ExecutionEventBus, owner: string) {
    const { taskId } = request;
    let ref: string;
    let contextId: string;
    let produced: string[] = [];
    if (request.task) {
      const link = await this.tasks.linkOf(taskId, request.context);
      if (!link?.ref || !this.mapping.resume) throw new Error(`Task ${taskId} cannot take a follow-up message.`);
      produced = (await this.mapping.produced?.(owner, link.ref))?.map((artifact) => artifact.recordId) ?? [];
      ref = (await this.mapping.resume(owner, link.ref, inputOf(request.userMessage))) ?? link.ref;
      contextId = link.contextId;
      await this.tasks.attach(taskId, owner, ref, contextId);
      bus.publish(AgentEvent.task(request.task));
    } else {
      const started = this.started.get(request.userMessage.messageId);
      if (!started) throw new Error(`No work was started for message ${request.userMessage.messageId}.`);
      this.started.delete(request.userMessage.messageId);
      ({ ref, contextId } = started);
      await this.tasks.attach(taskId, owner, ref, contextId);
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: taskStateOf('submitted'), message: undefined, timestamp: new Date().toISOString() },
          artifacts: [],
          history: [request.userMessage],
          metadata: undefined,
        }),
      );
    }
    // The system took the work: it is under way, whatever it reached since.
    bus.publish(statusUpdate(taskId, contextId, { state: 'working' }));
    const shown = { state: 'working' as const, artifacts: [], produced };
    for await (const update of followTask(this.mapping, {
      owner,
      ref,
      taskId,
      contextId,
      shown,
      until: 'input',
      whenGone: 'fail',
    }))
      bus.publish(update);
  }

  cancelTask = async (taskId: string): Promise<void> => {
    // Never reached: the handler cancels through the mapping and answers from the system (RunRequestHandler.cancelTask).
    throw new TaskNotCancelableError(`Task ${taskId} cannot be cancelled.`);
  };
}
