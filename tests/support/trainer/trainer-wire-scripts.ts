import type { ModelRequest } from '../../../actors/models/model-provider.ts';
import { readConversation } from '../../../actors/trainer/offline-model/conversation-view.ts';
import { decideNextTool } from '../../../actors/trainer/offline-model/offline-policy.ts';
import type { InitializerResponse } from '../../../protocol/trainer/initializer-response.ts';
import type { AnthropicReply, OpenAiReply } from '../models/fake-model-server.ts';
import { benchPress, plank } from './trainer-tool-fixtures.ts';

type Json = Record<string, unknown>;
type Block = { type?: string; name?: string; id?: string; tool_use_id?: string; content?: unknown; text?: string };

const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as Block[]) : [];

/** The tool the assistant called last and the text of its result, when the last user turn answers it. */
function lastAnsweredCall(body: Json): { name: string; result: string; userSpokeSince: boolean } | undefined {
  const messages = (body['messages'] as { role: string; content: unknown }[] | undefined) ?? [];
  const last = messages.at(-1);
  const before = messages.at(-2);
  if (!last || before?.role !== 'assistant') return undefined;
  const call = blocksOf(before.content).find((b) => b.type === 'tool_use');
  const blocks = blocksOf(last.content);
  const result = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === call?.id);
  if (!call?.name || !result) return undefined;
  const text =
    typeof result.content === 'string'
      ? result.content
      : blocksOf(result.content)
          .map((b) => b.text ?? '')
          .join('\n');
  // A user message after the result (it merges into the same turn) starts a new request.
  const userSpokeSince = blocks.some((b) => b.type === 'text' && !(b.text ?? '').startsWith('<'));
  return { name: call.name, result: text, userSpokeSince };
}

/**
 * The §12.9 script as Claude would play it: generate_workout, then message_notify_user with the
 * artifact id the result named, then idle; a new user message starts over.
 */
export function smokeScript(body: Json): AnthropicReply {
  const last = lastAnsweredCall(body);
  const artifactId = last?.name === 'generate_workout' ? /art_[A-Za-z0-9_-]+/.exec(last.result)?.[0] : undefined;
  // After a failed generate_workout (no artifact id in its result) it generates again.
  if (last && !last.userSpokeSince && artifactId) {
    return {
      toolUse: {
        name: 'message_notify_user',
        input: { message: 'Here is your workout: press, then hold.', artifact_id: artifactId },
      },
    };
  }
  if (last && !last.userSpokeSince && last.name === 'message_notify_user')
    return { toolUse: { name: 'idle', input: { reason: 'Workout delivered' } } };
  return {
    toolUse: {
      name: 'generate_workout',
      input: { workout: { title: 'Quick Session', estimated_duration_min: 20, exercises: [benchPress(1), plank(2)] } },
    },
  };
}

/** Claude played by the offline policy over the wire: every tool the offline model would choose. */
export function offlinePolicyScript(body: Json): AnthropicReply {
  const decision = decideNextTool(readConversation(body as unknown as ModelRequest));
  return { toolUse: { name: decision.name, input: decision.input } };
}

/** GPT-4o-mini choosing the §5.5 workout sources (the append-only rules drop what is loaded). */
export function workoutSelectionScript(): OpenAiReply {
  const response: InitializerResponse = {
    reasoning: 'A workout request needs goals, preferences and recent history.',
    append_knowledge: (['category_goals', 'muscle_goals', 'active_preferences', 'workout_history'] as const).map(
      (source) => ({
        source,
        reason: 'not_in_context',
        days_back: null,
      }),
    ),
    use_existing: [],
  };
  return { json: response };
}
