import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEventsToMessages } from '../../../actors/trainer/context/context-builder-messages.ts';
import { TOOL_NAMES } from '../../../protocol/trainer/tools/tool-name.ts';
import { checkAnthropicRequest } from '../../support/models/fake-model-server-checks.ts';
import {
  createScriptedModel,
  lastArtifactId,
  toolUse,
  type ScriptedStep,
} from '../../support/trainer/trainer-scripted-model.ts';
import { createTestTrainer } from '../../support/trainer/trainer-service-harness.ts';
import { benchPress, plank, sampleWorkout } from '../../support/trainer/trainer-tool-fixtures.ts';

/** Arguments a model might send each tool that pass its schema. */
const VALID: Record<
  string,
  (request: Parameters<Extract<ScriptedStep, (...args: any[]) => unknown>>[0]) => Record<string, unknown>
> = {
  message_notify_user: (request) => ({
    message: 'Here you go',
    ...(lastArtifactId(request) ? { artifact_id: lastArtifactId(request) } : {}),
  }),
  message_ask_user: () => ({ question: 'Gym or home?', options: ['Gym', 'Home'] }),
  idle: () => ({ reason: 'done' }),
  generate_workout: () => ({ workout: sampleWorkout() }),
  swap_exercise: () => ({ exercise_id: '1', new_exercise: plank(1) }),
  adjust_exercise: () => ({ exercise_id: '1', adjustments: { sets: 4 } }),
  remove_exercise: () => ({ exercise_id: '2' }),
  log_workout: () => ({ completed_exercises: [{ ...benchPress(1) }] }),
  fetch_data: () => ({ sources: ['user_profile', 'workout_history'] }),
  set_current_location: () => ({ location_name: 'Home Gym' }),
};

/** One model answer: a tool with valid or random arguments, an unknown tool, or text only. */
const answer: fc.Arbitrary<ScriptedStep> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(...TOOL_NAMES).map(
      (name): ScriptedStep =>
        (request) =>
          toolUse(name, VALID[name]!(request)),
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...TOOL_NAMES, 'drop_database'),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      )
      .map(([name, input]): ScriptedStep => toolUse(name, input)),
  },
  { weight: 1, arbitrary: fc.constant<ScriptedStep>([{ type: 'text', text: 'Sure, here is a plain answer.' }]) },
);

describe('trainer loop on the real actors (property)', () => {
  it('never crashes on any model output, pairs every call with its result, and only sends valid requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { maxLength: 12 }), async (script) => {
        const model = createScriptedModel(script);
        const { trainer, events } = createTestTrainer({ model });
        const result = await trainer.chat('user-1', { message: 'Give me a quick chest workout' });
        expect(result.status).toBe('completed');
        expect(result.iterations).toBeGreaterThanOrEqual(1);
        expect(result.iterations).toBeLessThanOrEqual(10);
        expect(model.requests).toHaveLength(result.iterations);

        const timeline = await events.listEvents(result.sessionId);
        const count = (type: string) => timeline.filter((e) => e.event_type === type).length;
        expect(count('llm_request')).toBe(result.iterations);
        expect(count('llm_response')).toBe(result.iterations);
        expect(count('tool_call')).toBe(result.actions.length);
        // Each tool_call is answered by its tool_result before anything else happens to tools.
        timeline.forEach((event, i) => {
          if (event.event_type !== 'tool_call') return;
          const next = timeline
            .slice(i + 1)
            .find((e) => e.event_type === 'tool_call' || e.event_type === 'tool_result');
          expect(next?.event_type).toBe('tool_result');
          expect(next?.data).toMatchObject({ call_id: event.data.call_id, tool_name: event.data.tool_name });
        });
        // A failed call is logged as an error of that tool, and the loop went on.
        const failed = result.actions.filter((a) => !a.result.success);
        expect(
          timeline.filter((e) => e.event_type === 'error' && String(e.data.context).startsWith('tool:')),
        ).toHaveLength(failed.length);
        // Every request the model saw was well formed: pairing and the four breakpoints.
        for (const request of model.requests) {
          expect(
            checkAnthropicRequest({ ...request, max_tokens: 8192, tool_choice: { type: 'any' } }, { 'x-api-key': 'k' }),
          ).toEqual([]);
        }
        const session = await events.getSession('user-1', result.sessionId);
        expect(session?.status).toBe('completed');
        expect(buildEventsToMessages(await events.listContextEvents(result.sessionId)).at(-1)?.role).toBe('user');
      }),
      { numRuns: 100 },
    );
  });
});
