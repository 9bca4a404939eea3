import { CONTEXT_START_TEXT } from '../context/context-builder-messages.ts';
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

const isMachineText = (text: string) =>
  text === CONTEXT_START_TEXT || /^\s*<(knowledge|artifact|tool_result|tool_error)\b/.test(text);

/**
 * Reads a request the way the model would: the user data block, the latest user words, the
 * calls made since, the knowledge in context, and the workout built so far.
 */
export function readConversation(request: ModelRequest): ConversationView {
  const view: ConversationView = {
    userDataXml: request.system.map((block) => block.text).find((text) => text.includes('<user_data>')) ?? '',
    userText: '',
    steps: [],
    previousAsk: undefined,
    knowledge: new Map(),
    workout: undefined,
  };
  const calls = new Map<string, TurnStep>();
  const absorb = (text: string) => {
    for (const [source, data] of knowledgeIn(text)) {
      view.knowledge.set(source, data);
      if (source === 'current_workout_session') view.workout = workoutFromText(data) ?? view.workout;
    }
  };
  for (const message of request.messages) {
    let lastWasUserText = false;
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
        calls.set(step.id, step);
        view.steps.push(step);
      } else if (block['type'] === 'tool_result') {
        lastWasUserText = false;
        const step = calls.get(String(block['tool_use_id']));
        if (!step) continue;
        step.result = resultText(block);
        step.failed = isFailedResult(step.result, block['is_error'] === true);
        if (step.failed) continue;
        view.workout = applyToolCall(view.workout, step.name, step.input);
        if (step.name === 'fetch_data') absorb(step.result);
      } else if (block['type'] === 'text' && typeof block['text'] === 'string') {
        const text = block['text'];
        if (isMachineText(text)) {
          lastWasUserText = false;
          absorb(text);
        } else if (lastWasUserText) {
          view.userText = `${view.userText}\n${text}`;
        } else {
          const last = view.steps.at(-1);
          view.previousAsk =
            last?.name === 'message_ask_user'
              ? {
                  question: String(last.input['question'] ?? ''),
                  options: Array.isArray(last.input['options']) ? last.input['options'].map(String) : [],
                }
              : undefined;
          view.userText = text;
          view.steps = [];
          lastWasUserText = true;
        }
      }
    }
  }
  return view;
}
