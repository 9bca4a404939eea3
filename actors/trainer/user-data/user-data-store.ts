import { ReadThroughCache } from '../../runtime/read-through-cache.ts';
import type { Store } from '../../runtime/store.ts';
import { deepFreeze } from '../../../protocol/runtime/parse-once.ts';
import { DataFileCorruptError, ValidationError, toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import type { UserDataSourceName } from '../../../protocol/trainer/data-source.ts';
import {
  USER_DATA_DOCUMENT_SCHEMAS,
  type UserDataDocumentInputMap,
  type UserDataDocumentMap,
} from '../../../protocol/trainer/user-data-documents.ts';
import { WorkoutHistoryEntrySchema, type WorkoutHistoryEntry } from '../../../protocol/trainer/workout-history.ts';

/** What a user who never saved a source reads. */
const EMPTY: UserDataDocumentInputMap = {
  user_profile: {},
  user_settings: {},
  all_locations: { locations: [] },
  category_goals: { goals: [] },
  muscle_goals: { goals: [] },
  active_preferences: { preferences: [] },
  workout_history: { workouts: [] },
};

/**
 * Each user's data documents (spec 001 §9): one document per source in `trainer/user-data/<userId>`,
 * except workout history, kept one workout per document in `trainer/workout-history/<userId>` so
 * logging a workout writes only that user's history.
 */
export interface UserDataStore {
  /** The user's document, or the empty document if never saved. Workouts come newest first. */
  get<K extends UserDataSourceName>(userId: string, source: K): Promise<UserDataDocumentMap[K]>;
  /** Validates and replaces the document (`PUT /users/me/<source>`); throws a ValidationError naming the field. */
  put<K extends UserDataSourceName>(userId: string, source: K, body: unknown): Promise<UserDataDocumentMap[K]>;
  /** Reads, changes and writes a document back, validating the result (`set_current_location`). */
  update<K extends UserDataSourceName>(
    userId: string,
    source: K,
    change: (doc: UserDataDocumentMap[K]) => UserDataDocumentInputMap[K],
  ): Promise<UserDataDocumentMap[K]>;
  /** Adds (or replaces, by id) one workout of the history (`log_workout`). */
  addWorkout(userId: string, workout: WorkoutHistoryEntry): Promise<WorkoutHistoryEntry>;
}

function validate<K extends UserDataSourceName>(source: K, body: unknown): UserDataDocumentMap[K] {
  const parsed = USER_DATA_DOCUMENT_SCHEMAS[source].safeParse(body);
  if (!parsed.success) {
    throw new ValidationError(`The ${source} document is invalid.`, toErrorIssues(parsed.error.issues));
  }
  return parsed.data as UserDataDocumentMap[K];
}

const newestFirst = (a: WorkoutHistoryEntry, b: WorkoutHistoryEntry) =>
  Date.parse(b.completed_at) - Date.parse(a.completed_at);

/**
 * Creates the user data store over a {@link Store}. The documents read recently are kept in
 * memory, checked once and frozen (the 1,000 most recently used, and the histories of the 200
 * users seen last, for 10 minutes at most), and every write goes through here, so a turn reads
 * what the store holds without reading the store, and a user's history is not read again
 * whole at each workout request.
 *
 * @example
 * const userData = createUserDataStore(store);
 * await userData.put('user-1', 'user_settings', { weight_unit: 'lb' });
 */
export function createUserDataStore(store: Store): UserDataStore {
  const documents = (userId: string) => store.collection<unknown>(`trainer/user-data/${userId}`);
  const held = new ReadThroughCache<unknown>({ maxEntries: 1000, idleMs: 10 * 60_000 });
  const keyOf = (userId: string, source: UserDataSourceName) => `${userId}\u0000${source}`;
  const history = (userId: string) => store.collection<WorkoutHistoryEntry>(`trainer/workout-history/${userId}`);
  /** Histories are larger: fewer are held. */
  const histories = new ReadThroughCache<UserDataDocumentMap['workout_history']>({
    maxEntries: 200,
    idleMs: 10 * 60_000,
  });
  const readHistory = async (userId: string) =>
    deepFreeze(readBack(userId, 'workout_history', { workouts: (await history(userId).list()).sort(newestFirst) }));

  function readBack<K extends UserDataSourceName>(userId: string, source: K, stored: unknown): UserDataDocumentMap[K] {
    const parsed = USER_DATA_DOCUMENT_SCHEMAS[source].safeParse(stored);
    if (!parsed.success) {
      throw new DataFileCorruptError(`trainer/user-data/${userId} (${source})`, parsed.error.message);
    }
    return parsed.data as UserDataDocumentMap[K];
  }

  const api: UserDataStore = {
    async get(userId, source) {
      if (source === 'workout_history')
        return (await histories.get(userId, () => readHistory(userId))) as UserDataDocumentMap[typeof source];
      const read = async () =>
        deepFreeze(readBack(userId, source, (await documents(userId).get(source)) ?? EMPTY[source]));
      return (await held.get(keyOf(userId, source), read)) as UserDataDocumentMap[typeof source];
    },

    async put(userId, source, body) {
      const doc = validate(source, body);
      if (source === 'workout_history') {
        const { workouts } = doc as UserDataDocumentMap['workout_history'];
        const keep = new Set(workouts.map((workout) => workout.id));
        const collection = history(userId);
        const stored = await histories.write(userId, async () => {
          for (const old of await collection.list()) if (!keep.has(old.id)) await collection.delete(old.id);
          for (const workout of workouts) await collection.put(workout.id, workout);
          return readHistory(userId);
        });
        return stored as UserDataDocumentMap[typeof source];
      }
      await held.write(keyOf(userId, source), async () => {
        await documents(userId).put(source, doc);
        return deepFreeze(doc);
      });
      return doc;
    },

    async update(userId, source, change) {
      if (source === 'workout_history') return api.put(userId, source, change(await api.get(userId, source)));
      const updated = await held.write(keyOf(userId, source), async () =>
        deepFreeze(
          await documents(userId).update(source, (stored) =>
            validate(source, change(readBack(userId, source, stored ?? EMPTY[source]))),
          ),
        ),
      );
      return updated as UserDataDocumentMap[typeof source];
    },

    async addWorkout(userId, workout) {
      const parsed = WorkoutHistoryEntrySchema.safeParse(workout);
      if (!parsed.success) {
        throw new ValidationError('The workout is invalid.', toErrorIssues(parsed.error.issues));
      }
      const added = parsed.data;
      const before = histories.held(userId);
      await histories.write(userId, async () => {
        await history(userId).put(added.id, added);
        // The held history takes the new workout in its place, rather than being read again.
        if (before === undefined) return undefined;
        const workouts = [...before.workouts.filter((known) => known.id !== added.id), added].sort(newestFirst);
        return deepFreeze({ workouts: workouts.map((known) => (known === added ? structuredClone(added) : known)) });
      });
      return added;
    },
  };
  return api;
}
