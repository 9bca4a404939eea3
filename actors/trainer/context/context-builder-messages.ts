import type { TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ConversationMessage } from '../../models/model-provider.ts';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import type { ToolResultData } from '../../../protocol/trainer/event-data.ts';
import type { ContextEvent } from '../../../protocol/trainer/session-event.ts';

/** Opens a context whose first event is a tool call, since a conversation must start with the user. */
export const CONTEXT_START_TEXT = '(The conversation continues from earlier events.)';
/** The result given to a tool call the event stream has no result for. */
export const MISSING_RESULT_TEXT = 'No result was recorded for this tool call.';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const text = (body: string): TextBlockParam => ({ type: 'text', text: body });

/** `<knowledge source="SOURCE">\nDATA\n</knowledge>` (spec 001 §4.3). */
export function renderKnowledge(source: string, data: string): string {
  return `<knowledge source="${escapeAttribute(source)}">\n${data}\n</knowledge>`;
}

/** `<artifact type="TYPE" id="ID">\nSUMMARY\n</artifact>` (spec 001 §4.3); the summary as JSON. */
export function renderArtifact(artifact: Artifact): string {
  const attributes = `type="${escapeAttribute(artifact.type)}" id="${escapeAttribute(artifact.artifact_id)}"`;
  return `<artifact ${attributes}>\n${JSON.stringify(artifact.summary)}\n</artifact>`;
}

/** A result with no open call of its id cannot be a `tool_result` block, so it is shown as text. */
function renderStrayResult(data: ToolResultData): string {
  const attributes = `tool="${escapeAttribute(data.tool_name)}" call_id="${escapeAttribute(data.call_id)}"`;
  return `<tool_result ${attributes}>\n${stringify(data.result)}\n</tool_result>`;
}

/** `stringify(result)` of spec 001 §4.3: strings as they are, anything else as JSON. */
function stringify(result: unknown): string {
  return typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null');
}

/** The error result of a tool call the stream has no result for. */
const missingResult = (callId: string): ToolResultBlockParam => ({
  type: 'tool_result',
  tool_use_id: callId,
  content: MISSING_RESULT_TEXT,
  is_error: true,
});

/** Freezes a turn, its content array and its blocks (their inputs are frozen already, by the event store). */
function frozen(message: ConversationMessage): ConversationMessage {
  if (Array.isArray(message.content)) {
    for (const block of message.content) Object.freeze(block);
    Object.freeze(message.content);
  }
  return Object.freeze(message);
}

/**
 * Converts context events into Messages API turns by the rules of spec 001 §4.3, one event at a
 * time, so a session's conversation grows with its log instead of being rebuilt each iteration:
 * - a `tool_call` becomes an assistant turn with one `tool_use` block;
 * - its `tool_result` becomes the next user turn, `tool_result` block first;
 * - user messages, knowledge and artifacts arriving while a call awaits its result are buffered
 *   and appended after the result; otherwise they join the last user turn or open a new one
 *   (so consecutive user messages merge).
 *
 * Three repairs keep a damaged stream valid for the API, where the spec's pseudocode would send
 * an invalid request: a call left without a result (a crash between call and result) gets an
 * error result when the next call or the end of the stream comes; a result with no open call of
 * its id is shown as text; a stream starting with a call gets an opening user turn.
 *
 * A message handed out by `messages()` is frozen: a turn that grows is replaced by a longer
 * copy, so earlier requests stay as they were sent, and whatever reads a request may remember
 * what it read of a message by the message itself.
 */
export class ConversationBuilder {
  readonly #messages: ConversationMessage[] = [];
  #pendingCallId: string | undefined;
  #buffered: TextBlockParam[] = [];

  /** Takes the next context event, in sequence order. */
  add(event: ContextEvent): void {
    switch (event.event_type) {
      case 'user_message': {
        if (this.#pendingCallId === undefined && this.#messages.at(-1)?.role !== 'user') {
          this.#messages.push(frozen({ role: 'user', content: event.data.message }));
        } else {
          this.#addText(event.data.message);
        }
        break;
      }
      case 'tool_call': {
        this.#closeWithoutResult();
        if (this.#messages.length === 0) this.#messages.push(frozen({ role: 'user', content: CONTEXT_START_TEXT }));
        const { call_id, tool_name, arguments: input } = event.data;
        this.#messages.push(
          frozen({ role: 'assistant', content: [{ type: 'tool_use', id: call_id, name: tool_name, input }] }),
        );
        this.#pendingCallId = call_id;
        this.#buffered = [];
        break;
      }
      case 'tool_result':
        if (this.#pendingCallId !== undefined && event.data.call_id === this.#pendingCallId) {
          this.#closePending({
            type: 'tool_result',
            tool_use_id: this.#pendingCallId,
            content: stringify(event.data.result),
          });
        } else {
          this.#addText(renderStrayResult(event.data));
        }
        break;
      case 'knowledge':
        this.#addText(renderKnowledge(event.data.source, event.data.data));
        break;
      case 'artifact':
        this.#addText(renderArtifact(event.data));
        break;
    }
  }

  /**
   * The turns so far, as a new array that starts with a user turn, alternates roles and ends
   * with a user turn; a call still waiting for its result is closed with an error result.
   */
  messages(): ConversationMessage[] {
    const messages = [...this.#messages];
    if (this.#pendingCallId !== undefined)
      messages.push(frozen({ role: 'user', content: [missingResult(this.#pendingCallId), ...this.#buffered] }));
    return messages;
  }

  /** Adds blocks to the last user turn (as a new, longer copy), or opens one (never while a call is pending). */
  #addToUserTurn(blocks: TextBlockParam[]): void {
    const messages = this.#messages;
    const last = messages.at(-1);
    if (last?.role !== 'user') {
      messages.push(frozen({ role: 'user', content: blocks }));
      return;
    }
    const content = typeof last.content === 'string' ? [text(last.content)] : last.content;
    messages[messages.length - 1] = frozen({ role: 'user', content: [...content, ...blocks] });
  }

  /** Buffers behind the pending call, or adds to the user turn. */
  #addText(body: string): void {
    if (this.#pendingCallId !== undefined) this.#buffered.push(text(body));
    else this.#addToUserTurn([text(body)]);
  }

  #closePending(result: ToolResultBlockParam): void {
    this.#messages.push(frozen({ role: 'user', content: [result, ...this.#buffered] }));
    this.#pendingCallId = undefined;
    this.#buffered = [];
  }

  #closeWithoutResult(): void {
    if (this.#pendingCallId !== undefined) this.#closePending(missingResult(this.#pendingCallId));
  }
}

/** Converts context events into Messages API turns at once (see {@link ConversationBuilder}). */
export function buildEventsToMessages(events: readonly ContextEvent[]): ConversationMessage[] {
  const builder = new ConversationBuilder();
  for (const event of events) builder.add(event);
  return builder.messages();
}
