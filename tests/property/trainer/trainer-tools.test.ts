import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { executeTool, toolRegistry } from '../../../actors/trainer/tools/index.ts';
import type { GenerateWorkoutResult } from '../../../actors/trainer/tools/generate-workout.ts';
import { WorkoutArtifactPayloadSchema, WorkoutSessionSchema } from '../../../protocol/trainer/tools/workout-session.ts';
import { TOOL_NAMES, type ToolName } from '../../../protocol/trainer/tools/tool-name.ts';
import {
  createToolTestContext,
  sampleWorkout,
  successOf,
  type ToolTestContext,
} from '../../support/trainer/trainer-tool-fixtures.ts';
import {
  exerciseBodyArb,
  exerciseRefArb,
  mutatedArb,
  validArgsArb,
  workoutArb,
} from '../../support/trainer/trainer-tool-arbitraries.ts';

/** Tools whose execution cannot fail once their arguments pass, in the context below. */
const ALWAYS_SUCCEED: readonly ToolName[] = [
  'message_notify_user',
  'message_ask_user',
  'idle',
  'generate_workout',
  'fetch_data',
];

/** A context with a workout and two locations, so that most calls have something to work on. */
async function preparedContext(): Promise<ToolTestContext> {
  const ctx = createToolTestContext();
  await ctx.userData.put('user-1', 'all_locations', {
    locations: [
      { id: 'loc-home', name: 'Home Gym', current_location: true },
      { id: 'loc-park', name: 'Park' },
    ],
  });
  await executeTool('generate_workout', { workout: sampleWorkout() }, ctx);
  return ctx;
}

const callArb = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .constantFrom(...TOOL_NAMES)
      .chain((name) => fc.tuple(fc.constant(name as string), mutatedArb(validArgsArb[name] ?? fc.constant({})))),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.oneof(fc.string(), fc.constantFrom('toString', '__proto__', 'idle ')), fc.anything()),
  },
);

describe('executeTool (property)', () => {
  it('never throws, and fails with invalid_arguments exactly when the zod schema rejects the arguments', async () => {
    await fc.assert(
      fc.asyncProperty(callArb, async ([name, raw]) => {
        const ctx = await preparedContext();
        const output = await executeTool(name, raw, ctx);
        expect(output.tool).toBe(name);
        expect(output.formatted).toMatch(/^<tool_(result|error) name="[^"]*">\n[\s\S]*\n<\/tool_(result|error)>$/);
        if (!Object.hasOwn(toolRegistry, name)) {
          expect(output.result).toMatchObject({ success: false, error_code: 'unknown_tool' });
          return;
        }
        const tool = toolRegistry[name as ToolName];
        const accepted = tool.parameters.safeParse(raw).success;
        expect(output.status === 'failed').toBe(!output.result.success);
        if (!accepted) {
          expect(output.result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
          if (!output.result.success) expect(output.result.issues?.length ?? 0).toBeGreaterThan(0);
        } else if (ALWAYS_SUCCEED.includes(name as ToolName)) {
          expect(output.result.success).toBe(true);
        }
        expect(output.terminal).toBe(tool.terminal && output.result.success);
      }),
      { numRuns: 400 },
    );
  });
});

describe('generate_workout (property)', () => {
  it('turns every valid workout into a stored, valid workout and artifact numbered 1..n', async () => {
    await fc.assert(
      fc.asyncProperty(workoutArb, async (workout) => {
        const ctx = createToolTestContext();
        const output = await executeTool('generate_workout', { workout }, ctx);
        const result = successOf<GenerateWorkoutResult>(output);
        const stored = WorkoutSessionSchema.parse(ctx.workouts.get('session-1'));
        expect(stored.exercises.map((e) => e.order)).toEqual(workout.exercises.map((_, i) => i + 1));
        const sortedNames = [...workout.exercises].sort((a, b) => a.order - b.order).map((e) => e.exercise_name);
        expect(stored.exercises.map((e) => e.exercise_name)).toEqual(sortedNames);
        const payload = WorkoutArtifactPayloadSchema.parse(output.createdArtifact?.payload);
        expect(payload.exercises).toEqual(stored.exercises);
        expect(result.exercise_count).toBe(workout.exercises.length);
        expect(output.rawFormatted).toContain(`artifact_id=${result.artifact_id}`);
      }),
      { numRuns: 300 },
    );
  });
});

type Edit =
  | { tool: 'swap_exercise'; args: Record<string, unknown> }
  | { tool: 'adjust_exercise'; args: Record<string, unknown> }
  | { tool: 'remove_exercise'; args: Record<string, unknown> };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    tool: fc.constant('swap_exercise' as const),
    args: fc.record({ exercise_id: exerciseRefArb, new_exercise: exerciseBodyArb }),
  }),
  fc.record({
    tool: fc.constant('adjust_exercise' as const),
    args: validArgsArb.adjust_exercise as fc.Arbitrary<Record<string, unknown>>,
  }),
  fc.record({ tool: fc.constant('remove_exercise' as const), args: fc.record({ exercise_id: exerciseRefArb }) }),
);

describe('swap/adjust/remove sequences (property)', () => {
  it('always leave a valid workout, change nothing when they fail, and keep the count right', async () => {
    await fc.assert(
      fc.asyncProperty(workoutArb, fc.array(editArb, { minLength: 1, maxLength: 8 }), async (workout, edits) => {
        const ctx = createToolTestContext();
        await executeTool('generate_workout', { workout }, ctx);
        for (const edit of edits) {
          const before = ctx.workouts.get('session-1');
          const output = await executeTool(edit.tool, edit.args, ctx);
          const after = ctx.workouts.get('session-1');
          expect(WorkoutSessionSchema.safeParse(after).success).toBe(true);
          if (!output.result.success) {
            expect(after).toEqual(before);
            continue;
          }
          const count = (before?.exercises.length ?? 0) - (edit.tool === 'remove_exercise' ? 1 : 0);
          expect(after?.exercises).toHaveLength(count);
          expect(after?.exercises.map((e) => e.order)).toEqual(after?.exercises.map((_, i) => i + 1));
        }
      }),
      { numRuns: 200 },
    );
  });
});
