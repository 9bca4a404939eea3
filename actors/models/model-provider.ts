import type {
  AssistantMessageParam,
  TextBlockParam,
  Tool,
  UserMessageParam,
} from '@anthropic-ai/sdk/resources/messages';

/** A turn of a conversation as the Messages API takes it. */
export type ConversationMessage = UserMessageParam | AssistantMessageParam;

/**
 * One model call (spec 001 §3.3): the tools, the system blocks and the messages, with any cache
 * breakpoints already in place (the trainer's context builder places four, §4.5). The provider
 * adds `max_tokens` and the forced `tool_choice` (`toolChoice`, else any tool).
 */
export interface ModelRequest {
  /** A registry id (`claude-haiku-4-5`, ...). */
  model: string;
  system: TextBlockParam[];
  tools: Tool[];
  messages: ConversationMessage[];
  /** Force this one tool (`{ type: 'tool', name }`); without it the provider forces some tool (`{ type: 'any' }`). */
  toolChoice?: { type: 'tool'; name: string } | undefined;
}

export interface ModelTextBlock {
  type: 'text';
  text: string;
}

export interface ModelToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ModelContentBlock = ModelTextBlock | ModelToolUseBlock;

/**
 * Token counts as the Messages API reports them: `input_tokens` counts only the input after the
 * last cache breakpoint; cache reads and cache writes are counted apart.
 */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/**
 * A model's answer in the Messages API shape, reduced to what the loop reads and stores: text
 * and `tool_use` blocks (forced tool use gives exactly one `tool_use`), and the usage.
 */
export interface ModelMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ModelContentBlock[];
  stop_reason: string | null;
  usage: ModelUsage;
}

/**
 * Where a model-backed brain's answers come from (DESIGN "Brains are pluggable"): Claude through
 * the Anthropic SDK (`createAnthropicProvider`), or a system's offline policy behind the same
 * interface (the trainer's `createOfflineProvider`). Both answer a {@link ModelRequest} with a
 * {@link ModelMessage}; a failed call rejects with a `ModelError`. `openModelBackends` chooses.
 */
export interface ModelProvider {
  readonly kind: 'anthropic' | 'offline';
  /** Whether calls cost money; offline answers cost nothing (spec 001 §11.1 prices billed calls). */
  readonly billed: boolean;
  call(request: ModelRequest, signal?: AbortSignal): Promise<ModelMessage>;
}
