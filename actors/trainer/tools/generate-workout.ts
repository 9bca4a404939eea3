import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import { GenerateWorkoutParamsSchema } from '../../../protocol/trainer/tools/generate-workout.ts';
import {
  WORKOUT_ARTIFACT_SCHEMA_VERSION,
  WORKOUT_ARTIFACT_TYPE,
  type WorkoutArtifactPayload,
  type WorkoutExercise,
} from '../../../protocol/trainer/tools/workout-session.ts';
import { newIdOf, nowOf } from './tool-clock.ts';
import type { ToolContext } from './tool-context.ts';
import { defineTool } from './trainer-tool.ts';
import { equipmentWarnings } from './equipment-check.ts';
import { describeExercise } from './workout-format.ts';
import { renumberExercises } from './workout-edits.ts';
import { summarizeWorkout, type WorkoutSummary } from './workout-summary.ts';

/** What generate_workout reports (spec 001 §6.4), plus the ids later edits can use. */
export interface GenerateWorkoutResult {
  artifact_id: string;
  title: string;
  exercise_count: number;
  summary: WorkoutSummary;
  exercises: { id: string; order: number; line: string }[];
  /** Exercises that need equipment the current location lacks (advisory). */
  warnings?: string[];
}

/** A fresh artifact id: `art_` and URL-safe characters (spec 001 §12.9). */
function newArtifactId(ctx: ToolContext): string {
  const raw = newIdOf(ctx).replace(/[^A-Za-z0-9_-]/g, '');
  return `art_${raw.length > 0 ? raw.replaceAll('-', '') : Date.now().toString(36)}`;
}

/**
 * Creates a workout artifact and makes it the session's current workout (spec 001 §6.4): the
 * exercises are put in order, numbered 1..n and given UUIDs for swap/adjust/remove. The result
 * reminds the agent to deliver the artifact with message_notify_user.
 */
export const generateWorkoutTool = defineTool<typeof GenerateWorkoutParamsSchema, GenerateWorkoutResult>({
  name: 'generate_workout',
  description:
    'Generate a workout with exercises. Creates an artifact. Each exercise has exercise_name, exercise_type ' +
    '(reps: sets, reps[] per set, rest_sec, optional load_each[] + load_unit; hold: sets, hold_sec[] per set, rest_sec; ' +
    'duration: duration_min, optional distance + distance_unit, target_pace; intervals: rounds, work_sec, rest_sec), ' +
    'a unique 1-indexed order, muscles_utilized and goals_addressed whose shares each sum to 1.0, and reasoning. ' +
    'Group exercises (superset = exactly 2, giant_set = 3+, circuit = 2+, warmup, cooldown, sequence) with a shared ' +
    'group id, consecutive orders and positions 1..k; name/rounds/rest_between_rounds_sec on position 1 only. ' +
    'After it returns, you MUST call message_notify_user with the artifact_id to deliver the workout.',
  parameters: GenerateWorkoutParamsSchema,
  terminal: false,
  statusMessage: { start: 'Creating your workout...', done: 'Workout ready' },
  async execute({ workout }, ctx) {
    const exercises: WorkoutExercise[] = renumberExercises(
      workout.exercises.map((exercise) => ({ ...exercise, id: newIdOf(ctx) })),
    );
    const summary = summarizeWorkout(exercises, workout.estimated_duration_min);
    const artifactId = newArtifactId(ctx);
    const payload: WorkoutArtifactPayload = {
      exercises,
      ...(workout.description === undefined ? {} : { description: workout.description }),
      estimated_duration_min: summary.estimated_duration_min,
    };
    const artifact: Artifact = {
      artifact_id: artifactId,
      type: WORKOUT_ARTIFACT_TYPE,
      schema_version: WORKOUT_ARTIFACT_SCHEMA_VERSION,
      title: workout.title,
      summary,
      auto_start: workout.auto_start ?? false,
      payload,
    };
    const stamp = nowOf(ctx).toISOString();
    ctx.workouts.set({
      session_id: ctx.sessionId,
      artifact_id: artifactId,
      title: workout.title,
      ...(workout.description === undefined ? {} : { description: workout.description }),
      source: 'generated',
      exercises,
      created_at: stamp,
      updated_at: stamp,
    });
    ctx.workouts.rememberArtifact(ctx.sessionId, artifact);
    const warnings = await equipmentWarnings(
      ctx,
      exercises.map((exercise) => exercise.exercise_name),
    );
    return {
      success: true,
      artifact_id: artifactId,
      title: workout.title,
      exercise_count: exercises.length,
      summary,
      exercises: exercises.map((exercise) => ({
        id: exercise.id,
        order: exercise.order,
        line: describeExercise(exercise),
      })),
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  },
  formatResult(result) {
    return [
      `Workout "${result.title}" created as artifact ${result.artifact_id}: ${result.exercise_count} exercises, ` +
        `about ${result.summary.estimated_duration_min} min.`,
      ...result.exercises.map((exercise) => exercise.line),
      ...(result.warnings ?? []).map((warning) => `Equipment warning: ${warning}`),
      `IMPORTANT: You MUST now call message_notify_user with artifact_id=${result.artifact_id} to deliver this ` +
        'workout to the user. Until you do, the user sees no workout.',
    ].join('\n');
  },
  artifactsOf(result, ctx) {
    const created = ctx.workouts.getArtifact(ctx.sessionId, result.artifact_id);
    return created ? { created } : {};
  },
});
