import { createActor, type AnyActorRef, type InspectionEvent } from 'xstate';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { AgentLoopOutput } from '../../machines/trainer/agent-loop-context.ts';
import type { AgentLoopStreamEvent } from '../../machines/trainer/agent-loop-stream.ts';
import { createSupervisorMachine, type SupervisorRejectedEvent } from '../../machines/runtime/supervisor.ts';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import type { SseEvent } from '../../protocol/trainer/sse-event.ts';
import type { TrainerEnvelopeOf } from '../../protocol/trainer/trainer-envelope.ts';
import type { Clock } from '../nutrition/live-run.ts';

export interface TrainerTurnOptions {
  system: SystemDefinition;
  journal: Journal<RoutedRecord>;
  /** The user's `chat_request`, its message id unique to this turn. */
  request: TrainerEnvelopeOf<'chat_request'>;
  clock?: Clock;
  /** Every stream event of the turn, in order (spec 001 §8.3). */
  onEvent?: (event: SseEvent) => void;
  inspect?: (event: InspectionEvent) => void;
}

/**
 * Runs one turn on its own trainer supervisor: sends the chat request, forwards the loop's stream
 * events, and resolves with the loop's output once its `turn_result` was journaled (or refused).
 * The supervisor is stopped either way.
 */
export function runTrainerTurn(options: TrainerTurnOptions): Promise<AgentLoopOutput> {
  const { request } = options;
  const resultId = `${request.message_id}:result`;
  const supervisor = createActor(createSupervisorMachine(options.system, { journal: options.journal }), {
    input: {},
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  return new Promise<AgentLoopOutput>((resolve, reject) => {
    let trainer: AnyActorRef | undefined;
    const finish = (settle: () => void) => {
      supervisor.stop();
      settle();
    };
    const resolveWithOutput = () => {
      const snapshot = trainer?.getSnapshot();
      if (snapshot?.status === 'done') finish(() => resolve(snapshot.output as AgentLoopOutput));
      else finish(() => reject(new RuntimeError('turn_lost', 'The agent loop stopped without a result.', 500)));
    };
    supervisor.on('supervisor.outbound', ({ record }) => {
      if (record.envelope.message_id === resultId) resolveWithOutput();
    });
    supervisor.on('supervisor.rejected', (event: SupervisorRejectedEvent) => {
      const id = (event.envelope as { message_id?: unknown } | null)?.message_id;
      // The result could not be journaled: the turn itself is over, so answer with it anyway.
      if (id === resultId) resolveWithOutput();
      else if (id === request.message_id) {
        finish(() => reject(new RuntimeError(event.error.code, `The chat request was refused: ${event.error.message}`, 503)));
      }
    });
    supervisor.start();
    trainer = (supervisor.getSnapshot().children as Record<string, AnyActorRef>)['TRAINER'];
    if (!trainer) return finish(() => reject(new Error('The trainer system has no TRAINER agent.')));
    trainer.on('agentLoop.event', (event: AgentLoopStreamEvent) => options.onEvent?.(event.event));
    trainer.subscribe({ error: (error) => finish(() => reject(error)) });
    supervisor.send({ type: 'supervisor.send', envelope: request });
  });
}
