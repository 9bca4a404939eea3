import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import type { DataSourceRegistry } from '../user-data/data-sources.ts';
import type { UserDataStore } from '../user-data/user-data-store.ts';
import type { WorkoutState } from '../workout-state.ts';

/** Finds a stored artifact of the user's session (the event store's `getArtifact`). */
export interface ArtifactLookup {
  getArtifact(userId: string, sessionId: string, artifactId: string): Promise<Artifact | undefined>;
}

/**
 * What a tool runs with (spec 001 §6.1 `ExecutionContext`: `userId`, `sessionId`), plus the
 * services it uses, injected so that tests and the offline runtime pass memory stores or fakes.
 */
export interface ToolContext {
  userId: string;
  sessionId: string;
  /** The in-memory workouts (generate/swap/adjust/remove/log). */
  workouts: WorkoutState;
  /** Stored artifacts, to deliver one created before a restart; optional. */
  artifacts?: ArtifactLookup;
  /** The data source registry (fetch_data); without it fetch_data fails cleanly. */
  dataSources?: DataSourceRegistry;
  /** The user's documents (set_current_location reads and moves the flag, log_workout appends). */
  userData?: Pick<UserDataStore, 'get' | 'update' | 'addWorkout'>;
  now?: () => Date;
  newId?: () => string;
}
