import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { NotFoundError, RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import type { ContextEvent } from '../../../protocol/trainer/session-event.ts';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import { systemBlocks, withMessagesBreakpoint, withToolsBreakpoint, type Cacheable } from './context-builder-cache.ts';
import type { ConversationMessage } from '../../models/model-provider.ts';
import { buildEventsToMessages } from './context-builder-messages.ts';
import type { DataSourceRegistry } from '../user-data/data-sources.ts';
import type { EventStore } from '../events/event-store.ts';
import { fetchUserDataXml } from '../user-data/user-data-xml.ts';

/** A context was asked for a session with no context events: log the user's message first. */
export class EmptySessionContextError extends RuntimeError {
  override name = 'EmptySessionContextError';
  constructor(readonly sessionId: string) {
    super(
      'empty_session_context',
      `Cannot build context: no events in session ${sessionId}. Append the user's message before building the context.`,
      500,
    );
  }
}

/**
 * Everything one model call needs (spec 001 §4.5), with the four cache breakpoints of §4.2 in
 * place: `tools` (1, last tool), `system` (2, the prompt; 3, the user data XML) and `messages`
 * (4, last block of the last message). Pass `tools`, `system` and `messages` to `messages.create`.
 */
export interface AgentContext<Tool> {
  systemPrompt: string;
  userDataXml: string;
  messages: ConversationMessage[];
  session: AgentSession;
  /** How many events the messages were built from. */
  eventCount: number;
  system: TextBlockParam[];
  tools: Tool[];
}

/** What a context is built from, all already fetched. */
interface AgentContextInput<Tool> {
  session: AgentSession;
  events: readonly ContextEvent[];
  userDataXml: string;
  systemPrompt: string;
  tools: readonly Tool[];
}

/** Builds the context from fetched parts; throws {@link EmptySessionContextError} without events. */
export function buildAgentContext<Tool extends Cacheable>(input: AgentContextInput<Tool>): AgentContext<Tool> {
  const { session, events, userDataXml, systemPrompt, tools } = input;
  if (events.length === 0) throw new EmptySessionContextError(session.id);
  return {
    systemPrompt,
    userDataXml,
    messages: withMessagesBreakpoint(buildEventsToMessages(events)),
    session,
    eventCount: events.length,
    system: systemBlocks(systemPrompt, userDataXml),
    tools: withToolsBreakpoint(tools),
  };
}

interface ContextBuilderOptions<Tool> {
  events: Pick<EventStore, 'getSession' | 'listContextEvents'>;
  dataSources: DataSourceRegistry;
  systemPrompt: string;
  /** The tool definitions, in the order the model sees them. */
  tools: readonly Tool[];
}

/** Builds the context of one model call from a session's events (spec 001 §4). */
export interface ContextBuilder<Tool> {
  build(sessionId: string, userId: string): Promise<AgentContext<Tool>>;
}

/**
 * Creates the context builder. Each build reads the session's context events and fetches the
 * user data XML afresh (spec 001 §4.4, §9.3), so a profile change shows in the next iteration.
 *
 * @example
 * const builder = createContextBuilder({ events, dataSources, systemPrompt, tools });
 * const context = await builder.build(session.id, userId);
 * await client.messages.create({ model, max_tokens: 8192, tool_choice: { type: 'any' },
 *   tools: context.tools, system: context.system, messages: context.messages });
 */
export function createContextBuilder<Tool extends Cacheable>(
  options: ContextBuilderOptions<Tool>,
): ContextBuilder<Tool> {
  const { events, dataSources, systemPrompt, tools } = options;
  return {
    async build(sessionId, userId) {
      const session = await events.getSession(userId, sessionId);
      if (session === undefined) throw new NotFoundError(`Session ${sessionId}`);
      const [contextEvents, userDataXml] = await Promise.all([
        events.listContextEvents(sessionId),
        fetchUserDataXml(dataSources, userId),
      ]);
      return buildAgentContext({ session, events: contextEvents, userDataXml, systemPrompt, tools });
    },
  };
}
