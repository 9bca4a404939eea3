import { describe, expect, it } from 'vitest';
import {
  createConsoleLog,
  formatClock,
  formatDollars,
  formatLogLine,
  formatTokenCount,
} from '../../../../../actors/trainer/loop/console-log.ts';

const at = (h: number, m: number, s: number, ms: number) => new Date(2025, 2, 1, h, m, s, ms);
const SESSION = 'a1b2c3d4-5e6f-4a1b-8c2d-0123456789ab';

describe('console log (spec 001 §11.3)', () => {
  it('writes the example lines of the spec exactly', () => {
    const lines = [
      formatLogLine({ kind: 'user_message', message: 'Give me a chest workout' }, at(14, 32, 1, 123), SESSION),
      formatLogLine(
        { kind: 'llm_request', model: 'claude-haiku-4-5', estimatedTokens: 2100 },
        at(14, 32, 1, 456),
        SESSION,
      ),
      formatLogLine(
        { kind: 'llm_response', text: '', totalTokens: 3210, cachedTokens: 2800, costCents: 0.12, durationMs: 1333 },
        at(14, 32, 2, 789),
        SESSION,
      ),
      formatLogLine(
        {
          kind: 'tool_call',
          tool: 'generate_workout',
          args: { workout: { exercises: [{ exercise_name: 'Push-Up' }] } },
        },
        at(14, 32, 2, 890),
        SESSION,
        { argsPreviewChars: 25 },
      ),
      formatLogLine(
        { kind: 'tool_result', tool: 'generate_workout', success: true, durationMs: 112 },
        at(14, 32, 3, 12),
        SESSION,
      ),
      formatLogLine(
        { kind: 'artifact', type: 'exercise_list', title: 'Chest & Triceps Session' },
        at(14, 32, 3, 145),
        SESSION,
      ),
    ];
    expect(lines).toEqual([
      '14:32:01.123 [a1b2c3d4] 👤 User: "Give me a chest workout"',
      '14:32:01.456 [a1b2c3d4] 📤 LLM Request → claude-haiku-4-5  est. 2.1K tokens',
      '14:32:02.789 [a1b2c3d4] 📥 LLM Response ← (empty)  3.2K tokens (2.8K cached) | $0.0012 | 1.3s',
      '14:32:02.890 [a1b2c3d4] 🔧 Tool Call → generate_workout  {"workout":{"exercises":[...',
      '14:32:03.012 [a1b2c3d4] 🔧 Tool Result ← generate_workout: ✓  112ms',
      '14:32:03.145 [a1b2c3d4] 📦 Artifact ← exercise_list  "Chest & Triceps Session"',
    ]);
  });

  it('marks failures, text responses, errors, knowledge and session totals', () => {
    const t = at(9, 5, 0, 7);
    expect(
      formatLogLine({ kind: 'tool_result', tool: 'swap_exercise', success: false, durationMs: 3.6 }, t, 'short'),
    ).toBe('09:05:00.007 [short] 🔧 Tool Result ← swap_exercise: ✗  4ms');
    expect(
      formatLogLine(
        { kind: 'llm_response', text: 'Plain\ntext', totalTokens: 950, cachedTokens: 0, costCents: 0, durationMs: 40 },
        t,
        SESSION,
      ),
    ).toBe('09:05:00.007 [a1b2c3d4] 📥 LLM Response ← "Plain text"  950 tokens | $0.0000 | 0.0s');
    expect(formatLogLine({ kind: 'error', message: 'Anthropic API error 529', context: 'llm_call' }, t, SESSION)).toBe(
      '09:05:00.007 [a1b2c3d4] ❌ Error: Anthropic API error 529 (llm_call)',
    );
    expect(formatLogLine({ kind: 'knowledge', source: 'workout_history', chars: 1234 }, t, SESSION)).toContain(
      '📚 Knowledge ← workout_history  1.2K chars',
    );
    expect(
      formatLogLine(
        { kind: 'session_end', status: 'completed', totalTokens: 2_500_000, cachedTokens: 0, costCents: 321 },
        t,
        SESSION,
      ),
    ).toContain('🏁 Session ← completed  2.5M tokens | $3.2100');
  });

  it('formats clocks, token counts and dollars', () => {
    expect(formatClock(new Date(Date.UTC(2025, 0, 1, 3, 4, 5, 6)), true)).toBe('03:04:05.006');
    expect([0, 999, 1000, 2149, 1_000_000].map(formatTokenCount)).toEqual(['0', '999', '1.0K', '2.1K', '1.0M']);
    expect(formatDollars(12.5)).toBe('$0.1250');
  });

  it('cuts long messages and writes through the sink only when enabled', () => {
    const written: string[] = [];
    const log = createConsoleLog({
      write: (line) => written.push(line),
      now: () => at(1, 2, 3, 4),
      textPreviewChars: 10,
    });
    log(SESSION, { kind: 'user_message', message: 'Give me a very long workout please' });
    expect(written).toEqual(['01:02:03.004 [a1b2c3d4] 👤 User: "Give me a ..."']);
    createConsoleLog({ write: (line) => written.push(line), enabled: false })(SESSION, {
      kind: 'user_message',
      message: 'x',
    });
    expect(written).toHaveLength(1);
  });
});
