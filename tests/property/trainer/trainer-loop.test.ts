import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../../protocol/trainer/tools/tool-name.ts';
import type { StopReason } from '../../../protocol/trainer/trainer-envelope.ts';
import { isToolStart, streamOrderProblems } from '../../support/trainer/trainer-http.ts';
import { startLoopHarness, type InitializerStep, type ModelStep } from '../../support/trainer/trainer-loop-harness.ts';

const toolName = fc.constantFrom(...TOOL_NAMES, 'not_a_tool', 'error', 'status');
const step: fc.Arbitrary<ModelStep> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      tool: toolName,
      args: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ noTool: true as const }) },
  { weight: 1, arbitrary: fc.record({ error: fc.string({ minLength: 1, maxLength: 30 }) }) },
);
const loaded: InitializerStep = {
  loaded: { sources: [{ source: 'category_goals', displayName: 'Goals' }], reasoning: 'r' },
};
const initializer = fc.constantFrom<InitializerStep>(loaded, { error: 'initializer down' });

interface Expected {
  stopReason: StopReason;
  iterations: number;
  tools: string[];
}

/** The §3.1 loop and §3.2 stops as a plain model: what the machine must do with a script. */
function expectedRun(script: readonly ModelStep[], failing: ReadonlySet<string>, maxIterations: number): Expected {
  const tools: string[] = [];
  for (let iteration = 1; ; iteration++) {
    const next = script[iteration - 1] ?? { tool: 'idle' };
    if ('error' in next) return { stopReason: 'model_error', iterations: iteration, tools };
    if ('noTool' in next) return { stopReason: 'no_tool_call', iterations: iteration, tools };
    if (!('tool' in next)) throw new Error('unexpected step');
    tools.push(next.tool);
    const failed = failing.has(next.tool);
    if (!failed && next.tool === 'idle') return { stopReason: 'idle', iterations: iteration, tools };
    if (!failed && next.tool === 'message_ask_user')
      return { stopReason: 'awaiting_user', iterations: iteration, tools };
    if (iteration >= maxIterations) return { stopReason: 'max_iterations', iterations: iteration, tools };
  }
}

describe('agentLoopMachine (property)', () => {
  it('follows §3.1/§3.2 for any model script: one model call and at most one tool per iteration, the right stop, ordered stream', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 14 }),
        fc.subarray([...TOOL_NAMES, 'not_a_tool', 'error', 'status']),
        initializer,
        fc.integer({ min: 1, max: 10 }),
        async (script, failingTools, init, maxIterations) => {
          const h = startLoopHarness({ script, failingTools, initializer: init, loop: { maxIterations } });
          try {
            h.send();
            const result = await h.result();
            const expected = expectedRun(script, new Set(failingTools), maxIterations);
            expect(result).toBeDefined();
            expect(result!.stop_reason).toBe(expected.stopReason);
            expect(result!.iterations).toBe(expected.iterations);
            expect(result!.iterations).toBeLessThanOrEqual(10);
            expect(result!.actions.map((a) => a.tool)).toEqual(expected.tools);
            expect(result!.status).toBe(expected.stopReason === 'model_error' ? 'error' : 'completed');
            // Exactly one model call per iteration, exactly one tool per iteration that got a call.
            expect(h.calls.model).toHaveLength(expected.iterations);
            expect(h.calls.tools).toHaveLength(expected.tools.length);
            expect(h.calls.finished).toHaveLength(1);
            expect(h.calls.finished[0]!.status).toBe(result!.status);
            // An initializer failure is logged once and never stops the turn.
            expect(h.calls.errors.filter((e) => e.context === 'context_init')).toHaveLength('error' in init ? 1 : 0);
            expect(streamOrderProblems(h.stream)).toEqual([]);
            expect(h.stream.filter(isToolStart)).toHaveLength(expected.tools.length);
            expect(h.stream.at(-1)?.type).toBe(result!.status === 'completed' ? 'done' : 'error');
            expect(h.outbound.map((r) => r.envelope.data_type)).toEqual(['turn_result']);
          } finally {
            h.stop();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
