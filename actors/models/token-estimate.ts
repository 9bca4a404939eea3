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

/**
 * JSON lengths of frozen objects already rendered. A session's prompts share their tools and
 * earlier messages from one call to the next (the context builder freezes what it hands out), so
 * each is rendered once; objects that may still change are rendered every time.
 */
const renderedLengths = new WeakMap<object, number>();

/** `JSON.stringify(value).length`, remembered for frozen objects. */
function jsonLength(value: unknown): number {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value))
    return (JSON.stringify(value) ?? '').length;
  const known = renderedLengths.get(value);
  if (known !== undefined) return known;
  const length = (JSON.stringify(value) ?? '').length;
  renderedLengths.set(value, length);
  return length;
}

/** The length of `JSON.stringify(items)` for an array of objects, each item's length remembered. */
function arrayLength(items: readonly unknown[]): number {
  let length = 2 + Math.max(0, items.length - 1);
  for (const item of items) length += jsonLength(item);
  return length;
}

/**
 * `renderPrompt(parts).length` without rendering what was rendered before: the tools array and
 * each message are measured once. Anything but arrays of objects is measured as it is.
 */
export function renderedPromptLength(parts: PromptParts): number {
  const { tools, system, messages } = parts;
  if (![tools, system, messages].every((part) => Array.isArray(part))) return renderPrompt(parts).length;
  const skeleton = '{"tools":,"system":,"messages":}'.length;
  return skeleton + jsonLength(tools) + arrayLength(system as unknown[]) + arrayLength(messages as unknown[]);
}

/** Estimated input tokens of a request before it is sent (spec 001 §11.4). */
export function estimatePromptTokens(parts: PromptParts): number {
  return Math.ceil(renderedPromptLength(parts) / CHARS_PER_TOKEN);
}
