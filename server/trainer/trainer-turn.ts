import type { AgentLoopOutput } from '../../machines/trainer/agent-loop-context.ts';
import type { AgentLoopStreamEvent } from '../../machines/trainer/agent-loop-stream.ts';
import type { SupervisorRejectedEvent } from '../../machines/runtime/supervisor.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { SseEvent } from '../../protocol/trainer/sse-event.ts';
import type { TrainerEnvelopeOf } from '../../protocol/trainer/trainer-envelope.ts';
import type { RunHost } from '../run-host/run-host.ts';

interface TrainerTurnOptions {
  /** The host of trainer runs: one run per session while a turn works. */
  host: RunHost;
  /** The user whose session it is. */
  owner: string;
  /** The user's `chat_request`, its message id unique to this turn. */
  request: TrainerEnvelopeOf<'chat_request'>;
  /** Every stream event of the turn, in order (spec 001 §8.3). */
  onEvent?: (event: SseEvent) => void;
}

/**
 * Runs one turn as the session's run on the host: sends the chat request, forwards the loop's
 * stream events, and resolves with the loop's output once its `turn_result` was journaled (or
 * refused). The run is released either way: the session's state lives in its event log.
 */
export function runTrainerTurn(options: TrainerTurnOptions): Promise<AgentLoopOutput> {
  const { request, host } = options;
  const resultId = `${request.message_id}:result`;
  const run = host.start({ owner: options.owner, partition: request.session_id });
  return new Promise<AgentLoopOutput>((resolve, reject) => {
    const finish = (settle: () => void) => {
      host.release(run.partition);
      settle();
    };
    const resolveWithOutput = () => {
      const snapshot = run.actor.getSnapshot();
      if (snapshot.status === 'done') finish(() => resolve(snapshot.output as AgentLoopOutput));
      else finish(() => reject(new RuntimeError('turn_lost', 'The agent loop stopped without a result.', 500)));
    };
    run.supervisor.on('supervisor.outbound', ({ record }) => {
      if (record.envelope.message_id === resultId) resolveWithOutput();
    });
    run.supervisor.on('supervisor.rejected', (event: SupervisorRejectedEvent) => {
      const id = event.requestId ?? (event.envelope as { message_id?: unknown } | null)?.message_id;
      // The result could not be journaled: the turn itself is over, so answer with it anyway.
      if (id === resultId) resolveWithOutput();
      else if (id === request.message_id) {
        finish(() =>
          reject(new RuntimeError(event.error.code, `The chat request was refused: ${event.error.message}`, 503)),
        );
      }
    });
    run.actor.on('agentLoop.event', (event: AgentLoopStreamEvent) => options.onEvent?.(event.event));
    run.actor.subscribe({ error: (error) => finish(() => reject(error)) });
    run.supervisor.send({ type: 'supervisor.send', envelope: request });
  });
}
