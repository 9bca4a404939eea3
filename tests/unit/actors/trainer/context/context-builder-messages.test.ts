import { describe, expect, it } from 'vitest';
import {
  CONTEXT_START_TEXT,
  MISSING_RESULT_TEXT,
  buildEventsToMessages,
  renderArtifact,
  renderKnowledge,
} from '../../../../../actors/trainer/context/context-builder-messages.ts';
import {
  artifact,
  artifactData,
  contextEvents,
  knowledge,
  toolCall,
  toolResult,
  userMessage,
} from '../../../../support/trainer/trainer-events.ts';

const text = (body: string) => ({ type: 'text', text: body });
const use = (id: string, name = 'generate_workout', input: Record<string, unknown> = {}) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const result = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content });

describe('buildEventsToMessages (spec 001 §4.3)', () => {
  it('turns a user message into a user turn with string content', () => {
    expect(buildEventsToMessages(contextEvents(userMessage('Give me a chest workout')))).toEqual([
      { role: 'user', content: 'Give me a chest workout' },
    ]);
  });

  it('merges consecutive user messages into one turn', () => {
    expect(buildEventsToMessages(contextEvents(userMessage('one'), userMessage('two'), userMessage('three')))).toEqual([
      { role: 'user', content: [text('one'), text('two'), text('three')] },
    ]);
  });

  it('turns a tool call into an assistant tool_use and its result into the next user turn', () => {
    const messages = buildEventsToMessages(
      contextEvents(
        userMessage('hi'),
        toolCall('c1', 'idle', { reason: 'done' }),
        toolResult('c1', { success: true, idle: true }, 'idle'),
      ),
    );
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('c1', 'idle', { reason: 'done' })] },
      { role: 'user', content: [result('c1', '{"success":true,"idle":true}')] },
    ]);
  });

  it('passes a string result through unchanged', () => {
    const messages = buildEventsToMessages(
      contextEvents(userMessage('hi'), toolCall('c1'), toolResult('c1', '<tool_result>ok</tool_result>')),
    );
    expect(messages[2]).toEqual({ role: 'user', content: [result('c1', '<tool_result>ok</tool_result>')] });
  });

  it('buffers knowledge, artifacts and user messages that arrive while a call awaits its result', () => {
    const messages = buildEventsToMessages(
      contextEvents(
        userMessage('hi'),
        toolCall('c1'),
        artifact('art_1'),
        knowledge('workout_history', 'none'),
        userMessage('also, no burpees'),
        toolResult('c1', 'created'),
      ),
    );
    expect(messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use('c1')] },
      {
        role: 'user',
        content: [
          result('c1', 'created'),
          text(renderArtifact(artifactData('art_1'))),
          text('<knowledge source="workout_history">\nnone\n</knowledge>'),
          text('also, no burpees'),
        ],
      },
    ]);
  });

  it('appends knowledge to the last user turn, or opens one', () => {
    expect(buildEventsToMessages(contextEvents(knowledge('user_profile', 'Age: 30'), userMessage('hi')))).toEqual([
      { role: 'user', content: [text('<knowledge source="user_profile">\nAge: 30\n</knowledge>'), text('hi')] },
    ]);
    expect(buildEventsToMessages(contextEvents(userMessage('hi'), knowledge('muscle_goals', '- Chest: 20%')))).toEqual([
      { role: 'user', content: [text('hi'), text('<knowledge source="muscle_goals">\n- Chest: 20%\n</knowledge>')] },
    ]);
  });

  it('merges what follows a tool result into the same user turn, after the result', () => {
    const messages = buildEventsToMessages(
      contextEvents(userMessage('hi'), toolCall('c1'), toolResult('c1', 'r'), userMessage('next'), knowledge('k', 'v')),
    );
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [result('c1', 'r'), text('next'), text('<knowledge source="k">\nv\n</knowledge>')],
    });
    expect(messages).toHaveLength(3);
  });

  it('renders artifacts with type, id and the summary', () => {
    expect(renderArtifact(artifactData('art_9'))).toBe(
      '<artifact type="exercise_list" id="art_9">\n{"exercise_count":1}\n</artifact>',
    );
    expect(renderKnowledge('a"b<c', 'x')).toBe('<knowledge source="a&quot;b&lt;c">\nx\n</knowledge>');
  });

  it('converts a whole agent turn: generate, deliver, idle', () => {
    const messages = buildEventsToMessages(
      contextEvents(
        userMessage('Give me a quick chest workout'),
        knowledge('category_goals', '- strength: 100%'),
        toolCall('c1', 'generate_workout', { workout: {} }),
        artifact('art_1'),
        toolResult('c1', 'IMPORTANT: You MUST now call message_notify_user with artifact_id=art_1'),
        toolCall('c2', 'message_notify_user', { message: 'Here you go', artifact_id: 'art_1' }),
        toolResult('c2', { success: true }, 'message_notify_user'),
        toolCall('c3', 'idle', { reason: 'done' }),
        toolResult('c3', { success: true }, 'idle'),
      ),
    );
    expect(messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        text('Give me a quick chest workout'),
        text('<knowledge source="category_goals">\n- strength: 100%\n</knowledge>'),
      ],
    });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        result('c1', 'IMPORTANT: You MUST now call message_notify_user with artifact_id=art_1'),
        text(renderArtifact(artifactData('art_1'))),
      ],
    });
  });

  describe('repairs of a damaged stream', () => {
    it('gives a call left without a result an error result, keeping what was buffered', () => {
      const messages = buildEventsToMessages(
        contextEvents(
          userMessage('hi'),
          toolCall('c1'),
          knowledge('k', 'v'),
          toolCall('c2', 'idle'),
          toolResult('c2', 'ok', 'idle'),
        ),
      );
      expect(messages).toEqual([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [use('c1')] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'c1', content: MISSING_RESULT_TEXT, is_error: true },
            text('<knowledge source="k">\nv\n</knowledge>'),
          ],
        },
        { role: 'assistant', content: [use('c2', 'idle')] },
        { role: 'user', content: [result('c2', 'ok')] },
      ]);
    });

    it('closes a call still open at the end of the stream', () => {
      const messages = buildEventsToMessages(contextEvents(userMessage('hi'), toolCall('c1'), userMessage('hello?')));
      expect(messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: MISSING_RESULT_TEXT, is_error: true },
          text('hello?'),
        ],
      });
    });

    it('shows a result with no open call of its id as text', () => {
      const messages = buildEventsToMessages(contextEvents(userMessage('hi'), toolResult('ghost', { success: false })));
      expect(messages).toEqual([
        {
          role: 'user',
          content: [
            text('hi'),
            text('<tool_result tool="generate_workout" call_id="ghost">\n{"success":false}\n</tool_result>'),
          ],
        },
      ]);
    });

    it('opens with a user turn when the stream starts with a call', () => {
      const messages = buildEventsToMessages(contextEvents(toolCall('c1'), toolResult('c1', 'ok')));
      expect(messages[0]).toEqual({ role: 'user', content: CONTEXT_START_TEXT });
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    });
  });
});
