import { randomUUID } from 'node:crypto';
import { BoundedCache } from '../runtime/bounded-cache.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import { ValidationError, toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import type { Artifact } from '../../protocol/trainer/artifact.ts';
import { ClientWorkoutSchema } from '../../protocol/trainer/tools/client-workout.ts';
import { WorkoutSessionSchema, type WorkoutSession } from '../../protocol/trainer/tools/workout-session.ts';
import { renumberExercises } from './tools/workout-edits.ts';

/** Why a client workout was not taken over. */
type SeedResult =
  | { seeded: true; workout: WorkoutSession }
  | { seeded: false; reason: 'already_active'; workout: WorkoutSession }
  | { seeded: false; reason: 'invalid'; issues: ErrorIssue[] };

interface WorkoutStateOptions {
  now?: () => Date;
  newId?: () => string;
  /** Sessions whose workout and artifacts are kept at most (least recently used dropped first); 2,000. */
  maxSessions?: number;
  /** A session untouched for this long is forgotten, as after a restart; one hour. */
  idleMs?: number;
}

/**
 * The current workout of each session, in memory (spec 001 §6.4 and Appendix B: transient, lost
 * on restart, which the client's `currentWorkout` can make up for). Stored workouts are always
 * valid: `set` parses them, so a tool cannot leave a half-edited workout behind. Memory follows
 * the active sessions: a session idle for an hour, or beyond the 2,000 used last, is forgotten
 * as after a restart (its artifacts stay in its event log).
 *
 * @example
 * const workouts = new WorkoutState();
 * workouts.set(workout);            // generate_workout
 * workouts.get(sessionId);          // swap / adjust / remove
 * workouts.clear(sessionId);        // log_workout
 */
export class WorkoutState {
  readonly #workouts: BoundedCache<string, WorkoutSession>;
  /** Artifacts created in this process, by session, so delivery does not wait for storage. */
  readonly #artifacts: BoundedCache<string, Map<string, Artifact>>;
  readonly now: () => Date;
  readonly newId: () => string;

  constructor(options: WorkoutStateOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
    const bounds = { maxEntries: options.maxSessions ?? 2000, idleMs: options.idleMs ?? 60 * 60_000 };
    this.#workouts = new BoundedCache(bounds);
    this.#artifacts = new BoundedCache(bounds);
  }

  /** The session's current workout, or undefined when there is none. */
  get(sessionId: string): WorkoutSession | undefined {
    return this.#workouts.get(sessionId);
  }

  /** Creates or replaces the session's workout; throws a ValidationError if it is not valid. */
  set(workout: WorkoutSession): WorkoutSession {
    const parsed = WorkoutSessionSchema.safeParse(workout);
    if (!parsed.success) {
      throw new ValidationError('A workout must be valid before it is stored.', toErrorIssues(parsed.error.issues));
    }
    this.#workouts.set(parsed.data.session_id, parsed.data);
    return parsed.data;
  }

  /** Drops the session's workout; true when there was one. */
  clear(sessionId: string): boolean {
    return this.#workouts.delete(sessionId);
  }

  /** Remembers an artifact created in this session. */
  rememberArtifact(sessionId: string, artifact: Artifact): void {
    const bySession = this.#artifacts.get(sessionId) ?? new Map<string, Artifact>();
    bySession.set(artifact.artifact_id, artifact);
    this.#artifacts.set(sessionId, bySession);
  }

  /** An artifact this process created in the session, or undefined. */
  getArtifact(sessionId: string, artifactId: string): Artifact | undefined {
    return this.#artifacts.get(sessionId)?.get(artifactId);
  }

  /** Forgets everything about a session (its workout and its artifacts). */
  forget(sessionId: string): void {
    this.#workouts.delete(sessionId);
    this.#artifacts.delete(sessionId);
  }

  /**
   * Takes over the client's `currentWorkout` when the session has no workout in memory (after a
   * restart, or a workout the client built itself), so swap/adjust/remove/log keep working. A
   * workout already in memory wins: it carries the server's ids and every edit made since.
   */
  seedFromClient(sessionId: string, currentWorkout: unknown): SeedResult {
    const existing = this.get(sessionId);
    if (existing) return { seeded: false, reason: 'already_active', workout: existing };
    const parsed = ClientWorkoutSchema.safeParse(currentWorkout);
    if (!parsed.success) return { seeded: false, reason: 'invalid', issues: toErrorIssues(parsed.error.issues) };
    const client = parsed.data;
    const allOrdered = client.exercises.every((exercise) => exercise.order !== undefined);
    const ordered = client.exercises
      .map((exercise, index) => ({ exercise, key: allOrdered ? (exercise.order ?? 0) : index }))
      .sort((a, b) => a.key - b.key)
      .map(({ exercise }, index) => ({ ...exercise, id: exercise.id ?? this.newId(), order: index + 1 }));
    const stamp = this.now().toISOString();
    const candidate = {
      session_id: sessionId,
      artifact_id: client.artifact_id ?? null,
      title: client.title ?? 'Current workout',
      ...(client.description === undefined ? {} : { description: client.description }),
      source: 'client' as const,
      exercises: renumberExercises(ordered),
      created_at: stamp,
      updated_at: stamp,
    };
    const checked = WorkoutSessionSchema.safeParse(candidate);
    if (!checked.success) return { seeded: false, reason: 'invalid', issues: toErrorIssues(checked.error.issues) };
    return { seeded: true, workout: this.set(checked.data) };
  }
}
