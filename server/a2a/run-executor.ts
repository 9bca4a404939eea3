import type { TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { FINAL_STATES, type A2aMapping, type A2aState } from './a2a-mapping.ts';
import { agentMessage, inputOf, taskStateOf, toArtifact } from './a2a-wire.ts';
import { ownerOf, type RunTaskStore } from './run-task-store.ts';

/** The system's handle on a task's work and the context it belongs to (`A2aMapping.start`). */
export interface Started {
  ref: string;
  contextId: string;
}

/** A level-triggered wake-up: `next` resolves at once when something changed since the last `clear`. */
function changes() {
  let dirty = false;
  let wake: (() => void) | undefined;
  return {
    notify: () => {
      dirty = true;
      wake?.();
    },
    clear: () => void (dirty = false),
    next: () => (dirty ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve))),
  };
}

function statusOf(taskId: string, contextId: string, state: A2aState, message?: string): TaskStatusUpdateEvent {
  return {
    taskId,
    contextId,
    status: {
      state: taskStateOf(state),
      message: message === undefined ? undefined : agentMessage(message, taskId, contextId),
      timestamp: new Date().toISOString(),
    },
    metadata: undefined,
  };
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
    if (request.task) {
      const link = await this.tasks.linkOf(taskId, request.context);
      if (!link?.ref || !this.mapping.resume) throw new Error(`Task ${taskId} cannot take a follow-up message.`);
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
    bus.publish(AgentEvent.statusUpdate(statusOf(taskId, contextId, 'working')));
    await this.follow({ owner, ref, taskId, contextId, bus, last: 'working' });
  }

  cancelTask = async (taskId: string): Promise<void> => {
    // The handler cancels through the mapping before it gets here; a task it could not cancel stays as it is.
    throw new TaskNotCancelableError(`Task ${taskId} cannot be cancelled.`);
  };

  private async follow(task: {
    owner: string;
    ref: string;
    taskId: string;
    contextId: string;
    bus: ExecutionEventBus;
    last: A2aState;
  }) {
    const { owner, ref, taskId, contextId, bus } = task;
    const changed = changes();
    const stop = await this.mapping.follow(owner, ref, changed.notify);
    const sent = new Map<string, string>();
    let last: { state: A2aState; message: string | undefined } = { state: task.last, message: undefined };
    try {
      for (;;) {
        changed.clear();
        const view = (await this.mapping.view(owner, ref)) ?? {
          state: 'failed' as const,
          message: 'The system no longer holds this work.',
          artifacts: [],
        };
        for (const artifact of view.artifacts) {
          const json = JSON.stringify(artifact.data);
          if (sent.get(artifact.name) === json) continue;
          sent.set(artifact.name, json);
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId,
              contextId,
              artifact: toArtifact(artifact),
              append: false,
              lastChunk: true,
              metadata: undefined,
            }),
          );
        }
        if (last.state !== view.state || last.message !== view.message) {
          last = { state: view.state, message: view.message };
          bus.publish(AgentEvent.statusUpdate(statusOf(taskId, contextId, view.state, view.message)));
        }
        if (FINAL_STATES.has(view.state) || view.state === 'input-required') return;
        await changed.next();
      }
    } finally {
      stop();
    }
  }
}
