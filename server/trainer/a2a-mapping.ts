import { randomUUID } from 'node:crypto';
import { ChatBodySchema } from '../../protocol/trainer/chat-body.ts';
import type { SseEvent } from '../../protocol/trainer/sse-event.ts';
import type { A2aArtifact, A2aInput, A2aMapping, A2aView } from '../a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../a2a/a2a-status.ts';
import { parseInput } from '../a2a/parse-input.ts';
import type { ClientResponse } from './client-response.ts';
import type { TrainerService } from './trainer-service.ts';

/** A chat as A2A sends it: the session is the task's context. */
const A2aChatSchema = ChatBodySchema.omit({ sessionId: true });

/** Turns kept for their tasks after they end (a task that outlives them reads its last saved state). */
const KEPT_TURNS = 1000;

interface Turn {
  owner: string;
  view: A2aView;
  listeners: Set<() => void>;
}

/** A turn's status once it ended: on `message_ask_user` it waits for the user's reply. */
const turnStatusOf = a2aStatusOf<{ status: 'completed' | 'error'; error?: string; response: ClientResponse }>({
  state: ({ status, response }) => (status === 'error' ? 'failed' : response.question ? 'input-required' : 'completed'),
  messages: {
    failed: ({ error }) => error ?? 'The turn failed.',
    'input-required': ({ response }) => {
      const { question, options } = response.question!;
      return `${question}${options.length ? ` (${options.join(' / ')})` : ''}`;
    },
    completed: ({ response }) => response.messages.join('\n'),
  },
});

function chatOf(input: A2aInput) {
  return input.data !== undefined
    ? parseInput(A2aChatSchema, input.data, 'data')
    : parseInput(A2aChatSchema, input.text === undefined ? undefined : { message: input.text }, 'text');
}

/**
 * The personal trainer over A2A: a text part (or a `data` part with the chat body of
 * `POST /agent/chat`) is one chat turn, the task; its context is the session (a message naming a
 * session of the user's as `contextId` continues it). Each artifact the trainer delivers (a
 * workout, a program) is an artifact as it comes, and the turn's client response the last one; a
 * turn that ends on `message_ask_user` is `input-required`, and a reply is the next turn of the
 * session under the same task. A turn is not cancelable (spec 001 lets a turn run to its end).
 */
export function trainerA2a(service: TrainerService): A2aMapping {
  const turns = new Map<string, Turn>();
  const changed = (turn: Turn) => turn.listeners.forEach((listener) => listener());

  const begin = async (owner: string, chat: ReturnType<typeof chatOf>, sessionId: string | undefined) => {
    const prepared = await service.prepare(owner, { ...chat, ...(sessionId ? { sessionId } : {}) });
    // The session is part of the turn's handle, so a reply finds it after the turn is forgotten.
    const turnId = `${prepared.sessionId}/${randomUUID()}`;
    const artifacts: A2aArtifact[] = [];
    const turn: Turn = { owner, view: { state: 'working', artifacts }, listeners: new Set() };
    turns.set(turnId, turn);
    for (const old of turns.keys()) if (turns.size > KEPT_TURNS) turns.delete(old);
    const onEvent = (event: SseEvent) => {
      if (!('artifact' in event) || !event.artifact) return;
      artifacts.push({
        name: event.artifact_id ?? `artifact-${artifacts.length + 1}`,
        schema: `trainer/${event.artifact.type}`,
        data: event.artifact,
      });
      changed(turn);
    };
    void prepared.run(onEvent).then(
      (result) => {
        const status = turnStatusOf(result);
        const response = { name: 'response', schema: 'trainer/client_response', data: result.response };
        // A turn that failed has no client response to show.
        turn.view = { ...status, artifacts: status.state === 'failed' ? artifacts : [...artifacts, response] };
        changed(turn);
      },
      (error: unknown) => {
        turn.view = { state: 'failed', message: error instanceof Error ? error.message : String(error), artifacts };
        changed(turn);
      },
    );
    return { ref: turnId, contextId: prepared.sessionId };
  };

  return {
    description:
      'Spec 001: a personal trainer that builds and adjusts workouts and reads your training data, one chat turn at a time in a session.',
    skills: [
      {
        id: 'trainer-chat',
        name: 'Chat with the trainer',
        description:
          'Send text (or a data part `{ message, currentWorkout?, model? }`); reply to answer its questions.',
        tags: ['fitness', 'workout', 'chat'],
        examples: ['Give me a quick chest workout', '{"message": "Make it 5 sets"}'],
      },
    ],
    parse: chatOf,
    start: ({ owner, request, contextId }) => begin(owner, request as ReturnType<typeof chatOf>, contextId),
    async view(owner, turnId) {
      const turn = turns.get(turnId);
      return turn && turn.owner === owner ? turn.view : undefined;
    },
    async follow(owner, turnId, onChange) {
      const turn = turns.get(turnId);
      if (!turn || turn.owner !== owner) return () => undefined;
      turn.listeners.add(onChange);
      return () => turn.listeners.delete(onChange);
    },
    checkReply: (input) => void chatOf(input),
    async resume(owner, turnId, input) {
      return (await begin(owner, chatOf(input), turnId.slice(0, turnId.lastIndexOf('/')))).ref;
    },
  };
}
