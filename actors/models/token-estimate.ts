/** The rough ratio of spec 001 §11.4: one token per four characters. */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a text (spec 001 §11.4: `total_characters / 4`, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** What a prompt is made of, in the Messages API shape. */
interface PromptParts {
  system: unknown;
  tools: unknown;
  messages: unknown;
}

/**
 * The prompt as one text, for the `llm_request` event's `prompt` (spec 001 §7.3) and the
 * estimate: the tools, system blocks and messages the model reads, as JSON.
 */
export function renderPrompt(parts: PromptParts): string {
  return JSON.stringify({ tools: parts.tools, system: parts.system, messages: parts.messages });
}

/** Estimated input tokens of a request before it is sent (spec 001 §11.4). */
export function estimatePromptTokens(parts: PromptParts): number {
  return estimateTokens(renderPrompt(parts));
}
