import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withMessagesBreakpoint } from '../../../actors/trainer/context/context-builder-cache.ts';
import {
  CONTEXT_START_TEXT,
  MISSING_RESULT_TEXT,
  buildEventsToMessages,
} from '../../../actors/trainer/context/context-builder-messages.ts';
import type { ConversationMessage } from '../../../actors/models/model-provider.ts';
import { anyContextEvents, wellFormedContextEvents } from '../../support/trainer/trainer-arbitraries.ts';

type Block = { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown; is_error?: boolean };
const blocks = (message: ConversationMessage): Block[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Block[]);

/** The invariants the Messages API imposes on a conversation (spec 001 §4.3, §12.2). */
function checkConversation(messages: ConversationMessage[]): void {
  expect(messages.length).toBeGreaterThan(0);
  messages.forEach((message, index) => {
    expect(message.role).toBe(index % 2 === 0 ? 'user' : 'assistant');
  });
  expect(messages.at(-1)?.role).toBe('user');
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const uses = blocks(message);
      expect(uses.every((block) => block.type === 'tool_use')).toBe(true);
      const next = blocks(messages[index + 1]!);
      // Every tool_use is answered in the immediately following user turn, results first.
      const results = next.slice(0, uses.length);
      expect(results.map((block) => [block.type, block.tool_use_id])).toEqual(
        uses.map((use) => ['tool_result', use.id]),
      );
      expect(next.slice(uses.length).every((block) => block.type !== 'tool_result')).toBe(true);
    } else if (index === 0) {
      expect(blocks(message).every((block) => block.type !== 'tool_result')).toBe(true);
    }
  });
}

describe('buildEventsToMessages (properties)', () => {
  it('always yields alternating turns, starting and ending with the user, each tool_use answered next', () => {
    fc.assert(
      fc.property(anyContextEvents, (events) => {
        checkConversation(buildEventsToMessages(events));
      }),
      { numRuns: 500 },
    );
  });

  it('never drops a user message, knowledge or artifact', () => {
    fc.assert(
      fc.property(anyContextEvents, (events) => {
        const rendered = JSON.stringify(buildEventsToMessages(events));
        for (const event of events) {
          if (event.event_type === 'user_message') expect(rendered).toContain(JSON.stringify(event.data.message));
          if (event.event_type === 'knowledge')
            expect(rendered).toContain(JSON.stringify(event.data.data).slice(1, -1));
          if (event.event_type === 'artifact') expect(rendered).toContain(`id=\\"${event.data.artifact_id}\\"`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('needs no repair for the streams the agent loop writes: one assistant turn per call', () => {
    fc.assert(
      fc.property(wellFormedContextEvents, ({ events, calls }) => {
        const messages = buildEventsToMessages(events);
        checkConversation(messages);
        expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(calls);
        const rendered = JSON.stringify(messages);
        expect(rendered).not.toContain(MISSING_RESULT_TEXT);
        expect(rendered).not.toContain(CONTEXT_START_TEXT);
        expect(rendered).not.toContain('<tool_result');
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the conversation valid with exactly one message breakpoint on the last block', () => {
    fc.assert(
      fc.property(anyContextEvents, (events) => {
        const marked = withMessagesBreakpoint(buildEventsToMessages(events));
        checkConversation(marked);
        expect(JSON.stringify(marked).match(/cache_control/g)).toHaveLength(1);
        expect(blocks(marked.at(-1)!).at(-1)).toHaveProperty('cache_control', { type: 'ephemeral' });
      }),
      { numRuns: 300 },
    );
  });
});
