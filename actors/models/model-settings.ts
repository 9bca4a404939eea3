/**
 * The model part of the runtime's configuration (DESIGN, Configuration). The field names are the
 * server's `Config`'s, so a whole `Config` can be passed where settings are asked for.
 */
export interface ModelSettings {
  /** `ANTHROPIC_API_KEY`: Claude for the callers that can use it. */
  anthropicApiKey?: string | undefined;
  /** `ANTHROPIC_BASE_URL`; the SDK's default endpoint when unset. */
  anthropicBaseUrl?: string | undefined;
  /** `OPENAI_API_KEY`: OpenAI for the callers that can use it (the trainer's initializer). */
  openaiApiKey?: string | undefined;
  /** `OPENAI_BASE_URL`, including `/v1`; the SDK's default endpoint when unset. */
  openaiBaseUrl?: string | undefined;
  /** `PRIMARY_MODEL`: the Claude model id (`claude-haiku-4-5`, ...). */
  primaryModel: string;
}
