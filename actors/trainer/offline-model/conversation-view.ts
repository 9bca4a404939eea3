import { CONTEXT_START_TEXT } from '../context/context-builder-messages.ts';
import { FrozenPrefixFold } from '../../models/frozen-prefix-fold.ts';
import type { ModelRequest } from '../../models/model-provider.ts';
import { applyToolCall, workoutFromText, type TrackedWorkout } from './tracked-workout.ts';

/** One tool call of the current turn and what came back. */
export interface TurnStep {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** The tool result's text; undefined until it arrives. */
  result: string | undefined;
  failed: boolean;
}

/** What the offline policy knows, read from nothing but the request (like a model). */
export interface ConversationView {
  /** The second system block (spec 001 §4.4). */
  userDataXml: string;
  /** The user's latest words (consecutive messages joined); '' when there are none. */
  userText: string;
  /** Tool calls made since the user's latest words, in order. */
  steps: TurnStep[];
  /** The question that ended the previous turn, when the user is answering one. */
  previousAsk: { question: string; options: string[] } | undefined;
  /** The latest text of each knowledge source (injected or fetched with fetch_data). */
  knowledge: Map<string, string>;
  /** The session's current workout as the conversation built it. */
  workout: TrackedWorkout | undefined;
}

type Block = Record<string, unknown>;
type Message = ModelRequest['messages'][number];

const isRecord = (value: unknown): value is Block =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : Array.isArray(content)
      ? content.filter(isRecord)
      : [];

/** The text of a tool_result block's content (a string or text blocks). */
function resultText(block: Block): string {
  return blocksOf(block['content'])
    .map((inner) => (typeof inner['text'] === 'string' ? inner['text'] : ''))
    .join('\n');
}

/** Whether a tool result reports failure, whether the loop stored it as XML text or as JSON. */
function isFailedResult(text: string, isError: boolean): boolean {
  if (isError || /^\s*<tool_error\b/.test(text) || /^\s*Error \(/.test(text)) return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && parsed['success'] === false;
  } catch {
    return false;
  }
}

const KNOWLEDGE = /<knowledge source="([^"]+)">\n([\s\S]*?)\n<\/knowledge>/g;

/** Knowledge carried by a text: `<knowledge>` blocks, or a fetch_data result stored as JSON. */
function knowledgeIn(text: string): [string, string][] {
  const blocks = [...text.matchAll(KNOWLEDGE)].map(([, source = '', data = '']): [string, string] => [source, data]);
  if (blocks.length > 0) return blocks;
  try {
    const parsed: unknown = JSON.parse(text);
    const data = isRecord(parsed) ? parsed['data'] : undefined;
    if (!isRecord(data)) return [];
    return Object.entries(data).flatMap(([source, value]): [string, string][] =>
      typeof value === 'string' ? [[source, value]] : [],
    );
  } catch {
    return [];
  }
}

/** What was read of each frozen block: its result text and failure, or the knowledge in its text. */
const readBlocks = new WeakMap<Block, { result?: { text: string; failed: boolean }; knowledge?: [string, string][] }>();

/** `compute(block)` once per frozen block (the last block of a request, marked anew each call, is read each time). */
function onceFor<K extends 'result' | 'knowledge', V>(block: Block, key: K, compute: () => V): V {
  if (!Object.isFrozen(block)) return compute();
  let read = readBlocks.get(block);
  if (read === undefined) readBlocks.set(block, (read = {}));
  return (read[key] ??= compute() as never) as V;
}

/** A tool_result block's text and whether it reports failure. */
const resultOf = (block: Block) =>
  onceFor(block, 'result', () => {
    const text = resultText(block);
    return { text, failed: isFailedResult(text, block['is_error'] === true) };
  });

const isMachineText = (text: string) =>
  text === CONTEXT_START_TEXT || /^\s*<(knowledge|artifact|tool_result|tool_error)\b/.test(text);

/** What the conversation says after some message: the view without the user data block. */
type Reading = Omit<ConversationView, 'userDataXml'> & {
  /** Calls still waiting for their result, by id. */
  readonly pending: ReadonlyMap<string, TurnStep>;
};

const NOTHING_READ: Reading = Object.freeze({
  userText: '',
  steps: [],
  previousAsk: undefined,
  knowledge: new Map<string, string>(),
  workout: undefined,
  pending: new Map<string, TurnStep>(),
});

/** Reads one message on from `before`, into a new reading (`before` is left as it was). */
function readMessage(before: Reading, message: Message): Reading {
  let { userText, steps, previousAsk, knowledge, workout, pending } = before;
  let lastWasUserText = false;
  const absorb = (found: [string, string][]) => {
    for (const [source, data] of found) {
      knowledge = new Map(knowledge).set(source, data);
      if (source === 'current_workout_session') workout = workoutFromText(data) ?? workout;
    }
  };
  for (const block of blocksOf(message.content)) {
    if (message.role === 'assistant') {
      if (block['type'] !== 'tool_use') continue;
      const step: TurnStep = {
        id: String(block['id']),
        name: String(block['name']),
        input: isRecord(block['input']) ? block['input'] : {},
        result: undefined,
        failed: false,
      };
      pending = new Map(pending).set(step.id, step);
      steps = [...steps, step];
    } else if (block['type'] === 'tool_result') {
      lastWasUserText = false;
      const id = String(block['tool_use_id']);
      const call = pending.get(id);
      if (!call) continue;
      const { text: result, failed } = resultOf(block);
      const step: TurnStep = { ...call, result, failed };
      pending = new Map(pending);
      (pending as Map<string, TurnStep>).delete(id);
      steps = steps.map((known) => (known === call ? step : known));
      if (step.failed) continue;
      workout = applyToolCall(workout, step.name, step.input);
      if (step.name === 'fetch_data') absorb(onceFor(block, 'knowledge', () => knowledgeIn(result)));
    } else if (block['type'] === 'text' && typeof block['text'] === 'string') {
      const text = block['text'];
      if (isMachineText(text)) {
        lastWasUserText = false;
        absorb(onceFor(block, 'knowledge', () => knowledgeIn(text)));
      } else if (lastWasUserText) {
        userText = `${userText}\n${text}`;
      } else {
        const last = steps.at(-1);
        previousAsk =
          last?.name === 'message_ask_user'
            ? {
                question: String(last.input['question'] ?? ''),
                options: Array.isArray(last.input['options']) ? last.input['options'].map(String) : [],
              }
            : undefined;
        userText = text;
        steps = [];
        lastWasUserText = true;
      }
    }
  }
  return { userText, steps, previousAsk, knowledge, workout, pending };
}

/**
 * The reading after each message, from the messages before it: readings are never changed, and
 * a session's messages are the same (frozen) objects from one call to the next (the context
 * builder freezes what it hands out), so a call reads only the messages past those it shares
 * with the session's previous call, not the whole conversation (see `FrozenPrefixFold`). Only a
 * frozen message with frozen content is sure to read the same next time.
 */
const readings = new FrozenPrefixFold<Message, Reading>(
  readMessage,
  NOTHING_READ,
  (message) => Object.isFrozen(message) && Object.isFrozen(message.content),
);

/**
 * Reads a request the way the model would: the user data block, the latest user words, the
 * calls made since, the knowledge in context, and the workout built so far. The messages are
 * read one after the other; a call reads only its new messages (see `readings`), so it costs
 * what they cost, not what the conversation does.
 */
export function readConversation(request: ModelRequest): ConversationView {
  const { pending: _pending, ...view } = readings.fold(request.messages);
  return {
    ...view,
    steps: [...view.steps],
    userDataXml: request.system.map((block) => block.text).find((text) => text.includes('<user_data>')) ?? '',
  };
}
