import type { DataSourceName, DataSourceParams, DataSourceParamsMap } from '../../../protocol/trainer/data-source.ts';
import type { CategoryGoal, MuscleGoal } from '../../../protocol/trainer/user-goals.ts';
import type { UserLocation } from '../../../protocol/trainer/user-locations.ts';
import type { Preference } from '../../../protocol/trainer/user-preferences.ts';
import type { UserProfile } from '../../../protocol/trainer/user-profile.ts';
import type { UserSettings } from '../../../protocol/trainer/user-settings.ts';
import {
  formatCategoryGoals,
  formatLocations,
  formatMuscleGoals,
  formatPreferences,
  formatProfile,
  formatSettings,
} from './data-sources-format.ts';
import {
  DEFAULT_DISTRIBUTION_DAYS,
  computeExerciseDistribution,
  formatExerciseDistribution,
  formatWorkoutHistory,
  selectWorkoutHistory,
  type ExerciseDistribution,
  type WorkoutHistoryData,
} from './data-sources-history.ts';
import type { UserDataStore } from './user-data-store.ts';

/** One data source of the registry (spec 001 §9.1). */
export interface DataSource<Raw> {
  description: string;
  /** Shown in the `knowledge` SSE event (spec 001 §8.3). */
  displayName: string;
  fetch(userId: string, params?: DataSourceParams): Promise<Raw>;
  format(raw: Raw): string;
}

/** What each source's `fetch` returns. */
export interface DataSourceRawMap {
  user_profile: UserProfile;
  user_settings: UserSettings;
  all_locations: UserLocation[];
  category_goals: CategoryGoal[];
  muscle_goals: MuscleGoal[];
  active_preferences: Preference[];
  workout_history: WorkoutHistoryData;
  exercise_distribution: ExerciseDistribution;
}

/** The registry: every source by name. */
export type DataSourceRegistry = { [K in DataSourceName]: DataSource<DataSourceRawMap[K]> };

interface DataSourcesOptions {
  userData: UserDataStore;
  /** Decides which preferences have expired and where history windows start. */
  now?: () => Date;
}

/** A preference reaches the agent while it is active and not past its expiry. */
const isActive = (now: Date) => (preference: Preference) =>
  preference.active && (preference.expires_at === undefined || Date.parse(preference.expires_at) > now.getTime());

/**
 * Creates the data source registry over the user data store (spec 001 §9).
 *
 * @example
 * const sources = createDataSources({ userData });
 * const history = await sources.workout_history.fetch('user-1', { days_back: 30 });
 * sources.workout_history.format(history);
 */
export function createDataSources(options: DataSourcesOptions): DataSourceRegistry {
  const { userData, now = () => new Date() } = options;
  return {
    user_profile: {
      description: 'Body stats and profile',
      displayName: 'Profile',
      fetch: (userId) => userData.get(userId, 'user_profile'),
      format: formatProfile,
    },
    user_settings: {
      description: 'App settings and preferences (units)',
      displayName: 'Settings',
      fetch: (userId) => userData.get(userId, 'user_settings'),
      format: formatSettings,
    },
    all_locations: {
      description: 'All locations with equipment',
      displayName: 'Locations',
      fetch: async (userId) => (await userData.get(userId, 'all_locations')).locations,
      format: formatLocations,
    },
    category_goals: {
      description: 'Training goals by category and their shares',
      displayName: 'Goals',
      fetch: async (userId) => (await userData.get(userId, 'category_goals')).goals,
      format: formatCategoryGoals,
    },
    muscle_goals: {
      description: 'How much emphasis each muscle should get',
      displayName: 'Muscle Goals',
      fetch: async (userId) => (await userData.get(userId, 'muscle_goals')).goals,
      format: formatMuscleGoals,
    },
    active_preferences: {
      description: 'Active preferences and constraints (injuries, equipment, schedule)',
      displayName: 'Preferences',
      fetch: async (userId) => (await userData.get(userId, 'active_preferences')).preferences.filter(isActive(now())),
      format: formatPreferences,
    },
    workout_history: {
      description: 'Recent workout history (params: limit, default 10; days_back)',
      displayName: 'Workout History',
      fetch: async (userId, params = {}) =>
        selectWorkoutHistory((await userData.get(userId, 'workout_history')).workouts, params, now()),
      format: formatWorkoutHistory,
    },
    exercise_distribution: {
      description:
        'How recent exercises spread over muscles and goals ' +
        `(params: days_back, default ${DEFAULT_DISTRIBUTION_DAYS})`,
      displayName: 'Exercise Distribution',
      fetch: async (userId, params = {}) =>
        computeExerciseDistribution(
          (await userData.get(userId, 'workout_history')).workouts,
          params.days_back ?? DEFAULT_DISTRIBUTION_DAYS,
          now(),
        ),
      format: formatExerciseDistribution,
    },
  };
}

/** One fetched source: its formatted text, or why it failed. */
type DataSourceResult =
  | { source: DataSourceName; displayName: string; formatted: string; error?: undefined }
  | { source: DataSourceName; displayName: string; error: string };

/** Fetches and formats one source. */
export async function fetchDataSource(
  registry: DataSourceRegistry,
  source: DataSourceName,
  userId: string,
  params?: DataSourceParams,
): Promise<string> {
  // Each entry pairs its own fetch and format; the union of entries loses that pairing.
  const entry = registry[source] as DataSource<unknown>;
  return entry.format(await entry.fetch(userId, params));
}

/**
 * Fetches several sources in parallel (spec 001 §5.2 `fetchMultipleDataSources`, §6.5
 * `fetch_data`). A failing source yields an `error` entry instead of failing the others.
 */
export function fetchMultipleDataSources(
  registry: DataSourceRegistry,
  sources: readonly DataSourceName[],
  userId: string,
  paramsMap: DataSourceParamsMap = {},
): Promise<DataSourceResult[]> {
  return Promise.all(
    sources.map(async (source): Promise<DataSourceResult> => {
      const displayName = registry[source].displayName;
      try {
        return { source, displayName, formatted: await fetchDataSource(registry, source, userId, paramsMap[source]) };
      } catch (error) {
        return { source, displayName, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}
