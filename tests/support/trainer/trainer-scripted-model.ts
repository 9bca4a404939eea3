import type {
  ModelContentBlock,
  ModelMessage,
  ModelProvider,
  ModelRequest,
} from '../../../actors/models/model-provider.ts';

/** What the scripted model answers on one call: content blocks, or an error to throw. */
export type ScriptedAnswer = ModelContentBlock[] | Error;
/** One step of a script; a function sees the request (to read the artifact id just created, say). */
export type ScriptedStep = ScriptedAnswer | ((request: ModelRequest) => ScriptedAnswer);

/** A tool_use block. */
export const toolUse = (
  name: string,
  input: Record<string, unknown>,
  id = `toolu_${name}_${Math.random().toString(36).slice(2, 10)}`,
): ModelContentBlock[] => [{ type: 'tool_use', id, name, input }];

/** The last `art_...` id the conversation shows (a generate_workout result). */
export function lastArtifactId(request: ModelRequest): string | undefined {
  const text = JSON.stringify(request.messages);
  return [...text.matchAll(/art_[A-Za-z0-9_-]+/g)].at(-1)?.[0];
}

/**
 * A model provider that plays a script, one step per call, and records every request. After the
 * script it answers `idle`. Usage is a fixed small count; `billed` decides whether it costs.
 */
export function createScriptedModel(steps: readonly ScriptedStep[], options: { billed?: boolean } = {}) {
  const requests: ModelRequest[] = [];
  const provider: ModelProvider & { requests: ModelRequest[] } = {
    kind: 'anthropic',
    billed: options.billed ?? true,
    requests,
    async call(request) {
      requests.push(structuredClone(request));
      const step = steps[requests.length - 1] ?? toolUse('idle', { reason: 'script over' });
      const answer = typeof step === 'function' ? step(request) : step;
      if (answer instanceof Error) throw answer;
      const message: ModelMessage = {
        id: `msg_${requests.length}`,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: answer,
        stop_reason: answer.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      };
      return message;
    },
  };
  return provider;
}
