import { buildAgentContext } from '../../../../../actors/trainer/context/context-builder.ts';
import { fetchUserDataXml } from '../../../../../actors/trainer/user-data/user-data-xml.ts';
import type { ModelProvider, ModelRequest } from '../../../../../actors/models/model-provider.ts';
import { readModelResponse, type LlmResponse } from '../../../../../actors/models/model-response.ts';
import { executeTool, getToolDefinitions, type ToolOutput } from '../../../../../actors/trainer/tools/index.ts';
import type { ContextEvent } from '../../../../../protocol/trainer/session-event.ts';
import type { AgentSession } from '../../../../../protocol/trainer/session.ts';
import { asEvents } from '../../../../support/trainer/trainer-events.ts';
import { createToolTestContext, type ToolTestContext } from '../../../../support/trainer/trainer-tool-fixtures.ts';

/** One iteration of the driven loop. */
export interface DrivenAction {
  tool: string;
  args: Record<string, unknown>;
  output: ToolOutput;
  response: LlmResponse;
  request: ModelRequest;
}

type Row = Pick<ContextEvent, 'event_type' | 'data'>;

const SESSION: AgentSession = {
  id: 'session-1',
  user_id: 'user-1',
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
  context_start_sequence: 0,
  total_tokens: 0,
  cached_tokens: 0,
  total_cost_cents: 0,
  status: 'active',
  metadata: {},
};

export interface LoopDriverOptions {
  provider: ModelProvider;
  model?: string;
  /** How tool results go into `tool_result` events: the XML-wrapped text, or the result object. */
  store?: 'formatted' | 'json';
}

/**
 * A minimal stand-in for the agent loop of spec 001 §3.1 (the real one is a statechart): context
 * from the event rows, one model call, one tool, rows appended, until idle, a question or 10
 * iterations. Enough to drive a provider through real tools and the real context builder.
 */
export function createLoopDriver(options: LoopDriverOptions) {
  const ctx: ToolTestContext = createToolTestContext();
  const rows: Row[] = [];
  const tools = getToolDefinitions();
  const model = options.model ?? 'claude-haiku-4-5';
  return {
    ctx,
    rows,
    /** One user turn: the message, then any knowledge the initializer would add, then the loop. */
    async turn(message: string, knowledge: [source: string, data: string][] = []): Promise<DrivenAction[]> {
      rows.push({ event_type: 'user_message', data: { message } } as Row);
      for (const [source, data] of knowledge) rows.push({ event_type: 'knowledge', data: { source, data } } as Row);
      const actions: DrivenAction[] = [];
      for (let iteration = 0; iteration < 10; iteration += 1) {
        const userDataXml = await fetchUserDataXml(ctx.dataSources, ctx.userId);
        const context = buildAgentContext({
          session: SESSION,
          events: asEvents(rows) as ContextEvent[],
          userDataXml,
          systemPrompt: 'You are an AI personal trainer. Respond only with tool calls.',
          tools,
        });
        const request: ModelRequest = {
          model,
          system: context.system,
          tools: context.tools,
          messages: context.messages,
        };
        const message = await options.provider.call(request);
        const response = readModelResponse(message, { requestedModel: model, provider: options.provider });
        const toolCall = response.toolCall;
        if (!toolCall) break;
        const output = await executeTool(toolCall.name, toolCall.arguments, ctx);
        rows.push({
          event_type: 'tool_call',
          data: { tool_name: toolCall.name, arguments: toolCall.arguments, call_id: toolCall.id },
        } as Row);
        const result = options.store === 'json' ? output.result : output.formatted;
        rows.push({
          event_type: 'tool_result',
          data: { tool_name: toolCall.name, result, success: output.status === 'done', call_id: toolCall.id },
        } as Row);
        if (output.createdArtifact) rows.push({ event_type: 'artifact', data: output.createdArtifact } as Row);
        actions.push({ tool: toolCall.name, args: toolCall.arguments, output, response, request });
        if (output.terminal) break;
      }
      return actions;
    },
  };
}
