import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import type { ContextEvent } from '../../../protocol/trainer/session-event.ts';
import type { AgentSession } from '../../../protocol/trainer/session.ts';
import { systemBlocks, withMessagesBreakpoint, withToolsBreakpoint, type Cacheable } from './context-builder-cache.ts';
import type { ConversationMessage } from '../../models/model-provider.ts';
import { buildEventsToMessages, ConversationBuilder } from './context-builder-messages.ts';
import type { DataSourceRegistry } from '../user-data/data-sources.ts';
import type { EventStore } from '../events/event-store.ts';
import type { SessionLog } from '../events/session-log.ts';
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
  /**
   * The session's conversation as memory holds it: the same object for every build of the
   * session until memory drops its log or its checkpoint moves (absent for a context built from
   * events at once). What is remembered per conversation goes when it goes.
   */
  conversation?: object;
}

/** What a context is built from, all already fetched: the events, or the messages built from them. */
type AgentContextInput<Tool> = {
  session: AgentSession;
  userDataXml: string;
  systemPrompt: string;
  tools: readonly Tool[];
} & ({ events: readonly ContextEvent[] } | { messages: ConversationMessage[]; eventCount: number });

/** Builds the context from fetched parts; throws {@link EmptySessionContextError} without events. */
export function buildAgentContext<Tool extends Cacheable>(input: AgentContextInput<Tool>): AgentContext<Tool> {
  const { session, userDataXml, systemPrompt, tools } = input;
  const eventCount = 'events' in input ? input.events.length : input.eventCount;
  if (eventCount === 0) throw new EmptySessionContextError(session.id);
  const messages = 'events' in input ? buildEventsToMessages(input.events) : input.messages;
  return {
    systemPrompt,
    userDataXml,
    messages: withMessagesBreakpoint(messages),
    session,
    eventCount,
    system: systemBlocks(systemPrompt, userDataXml),
    tools: withToolsBreakpoint(tools),
  };
}

interface ContextBuilderOptions<Tool> {
  events: Pick<EventStore, 'contextSource'>;
  dataSources: DataSourceRegistry;
  systemPrompt: string;
  /** The tool definitions, in the order the model sees them. */
  tools: readonly Tool[];
}

/** Builds the context of one model call from a session's events (spec 001 §4). */
export interface ContextBuilder<Tool> {
  build(sessionId: string, userId: string): Promise<AgentContext<Tool>>;
}

/** A session's conversation as built so far: from which context event, up to which, in which order. */
interface Conversation {
  start: number;
  built: number;
  reorders: number;
  builder: ConversationBuilder;
}

/**
 * Creates the context builder. Each build takes the session's context events from memory (the
 * event store's `contextSource`) and fetches the user data XML afresh (spec 001 §4.4, §9.3), so
 * a profile change shows in the next iteration. The messages are built on from the previous
 * build of the same session's log, one new event at a time, so a build's cost does not grow with
 * the session; a moved `context_start_sequence` (or a log read again) starts them over.
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
  // Keyed by the log memory holds: a dropped log takes its conversation with it.
  const conversations = new WeakMap<SessionLog, Conversation>();

  function messagesOf(log: SessionLog, startSequence: number) {
    const start = log.startIndex(startSequence);
    let conversation = conversations.get(log);
    if (conversation === undefined || conversation.start !== start || conversation.reorders !== log.reorders) {
      conversation = { start, built: start, reorders: log.reorders, builder: new ConversationBuilder() };
      conversations.set(log, conversation);
    }
    const { context } = log;
    for (; conversation.built < context.length; conversation.built++)
      conversation.builder.add(context[conversation.built] as ContextEvent);
    return { messages: conversation.builder.messages(), count: context.length - start, conversation };
  }

  return {
    async build(sessionId, userId) {
      const [{ session, log }, userDataXml] = await Promise.all([
        events.contextSource(userId, sessionId),
        fetchUserDataXml(dataSources, userId),
      ]);
      const { messages, count, conversation } = messagesOf(log, session.context_start_sequence);
      const context = buildAgentContext({ session, messages, eventCount: count, userDataXml, systemPrompt, tools });
      return { ...context, conversation };
    },
  };
}
