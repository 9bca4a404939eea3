import fc from 'fast-check';
import type { ContextEvent } from '../../../protocol/trainer/session-event.ts';
import { artifact, contextEvents, knowledge, toolCall, toolResult, userMessage } from './trainer-events.ts';

type Row = Parameters<typeof contextEvents>[number];

/** Message text: the schema refuses blank messages, as the model API does. */
const words = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => /\S/.test(text));
const step = fc.record({
  kind: fc.constantFrom('user_message', 'knowledge', 'artifact', 'tool_call', 'tool_result', 'tool_result'),
  pick: fc.nat({ max: 20 }),
  text: words,
});

/**
 * Any sequence of context events, damaged ones included: results for old or unknown calls,
 * calls without results, streams opening with a call. Call ids are unique, as the model's are.
 */
export const anyContextEvents: fc.Arbitrary<ContextEvent[]> = fc
  .array(step, { minLength: 1, maxLength: 40 })
  .map((steps) => {
    const calls: string[] = [];
    const rows: Row[] = steps.map((s, index) => {
      switch (s.kind) {
        case 'user_message':
          return userMessage(s.text);
        case 'knowledge':
          return knowledge(`source_${s.pick}`, s.text);
        case 'artifact':
          return artifact(`art_${index}`);
        case 'tool_call': {
          calls.push(`call_${index}`);
          return toolCall(`call_${index}`, `tool_${s.pick}`, { n: s.pick });
        }
        default: {
          // Mostly the latest call, sometimes an older one or one that never happened.
          const id =
            calls.length === 0 || s.pick > 15 ? `stray_${index}` : calls[Math.max(0, calls.length - 1 - (s.pick % 3))]!;
          return toolResult(id, s.pick % 2 === 0 ? { success: true, n: s.pick } : s.text);
        }
      }
    });
    return contextEvents(...rows);
  });

const aside = fc.oneof(
  words.map((text) => userMessage(text)),
  words.map((text) => knowledge('workout_history', text)),
  fc.nat({ max: 999 }).map((n) => artifact(`art_${n}`)),
);

/**
 * Streams the agent loop writes: turns of a user message (plus knowledge), then tool calls each
 * followed by its result, with artifacts, knowledge or user messages possibly in between.
 */
export const wellFormedContextEvents: fc.Arbitrary<{ events: ContextEvent[]; calls: number }> = fc
  .array(
    fc.record({
      message: words,
      knowledge: fc.array(words, { maxLength: 2 }),
      iterations: fc.array(fc.array(aside, { maxLength: 3 }), { maxLength: 4 }),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((turns) => {
    const rows: Row[] = [];
    let calls = 0;
    for (const turn of turns) {
      rows.push(userMessage(turn.message), ...turn.knowledge.map((data) => knowledge('category_goals', data)));
      for (const asides of turn.iterations) {
        const id = `call_${++calls}`;
        rows.push(toolCall(id), ...asides, toolResult(id, { success: true }));
      }
    }
    return { events: contextEvents(...rows), calls };
  });
