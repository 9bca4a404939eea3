import type { LlmRequestDataSchema } from '../../../protocol/trainer/event-data.ts';
import type { z } from 'zod';
import type { AgentContext } from '../context/context-builder.ts';
import { estimatePromptTokens } from '../../models/token-estimate.ts';

/** What a session's last logged request was made of. */
interface LoggedPrompt {
  tools: unknown;
  system: string;
  messages: readonly unknown[];
}

type LlmRequestData = z.input<typeof LlmRequestDataSchema>;

/**
 * The `llm_request` data of each model call (spec 001 §7.3), logged as what changed since the
 * session's previous request (see `LlmRequestDataSchema`): the first request of a conversation
 * as memory holds it is logged whole, each later one as the messages from the first one that
 * differs (the previous last message at the latest, since only the last carries the breakpoint),
 * with the tools or system blocks only when they changed. So logging a request costs what its
 * new messages cost, not what the conversation does. The estimate covers the whole prompt.
 */
export class PromptLog {
  /** By conversation (`AgentContext.conversation`): dropped with it. */
  readonly #last = new WeakMap<object, LoggedPrompt>();

  /** The request's data, and `logged` to call once it is in the journal. */
  entryFor(model: string, context: AgentContext<unknown>): { data: LlmRequestData; logged: () => void } {
    const { tools, messages, conversation } = context;
    const system = `${context.systemPrompt}\u0000${context.userDataXml}`;
    const estimated = estimatePromptTokens(context);
    const previous = conversation === undefined ? undefined : this.#last.get(conversation);
    const logged = () => {
      if (conversation !== undefined) this.#last.set(conversation, { tools, system, messages });
    };
    if (previous === undefined) {
      const prompt = JSON.stringify({ tools, system: context.system, messages });
      return { data: { model, prompt, estimated_tokens: estimated }, logged };
    }
    let from = 0;
    while (from < messages.length && from < previous.messages.length && messages[from] === previous.messages[from])
      from += 1;
    const changed = {
      ...(tools === previous.tools ? {} : { tools }),
      ...(system === previous.system ? {} : { system: context.system }),
      messages: messages.slice(from),
    };
    const data = { model, prompt: JSON.stringify(changed), estimated_tokens: estimated, prompt_from_message: from };
    return { data, logged };
  }
}
