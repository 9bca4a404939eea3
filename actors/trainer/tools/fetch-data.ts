import type { DataSourceName } from '../../../protocol/trainer/data-source.ts';
import { FetchDataParamsSchema } from '../../../protocol/trainer/tools/fetch-data.ts';
import { fetchMultipleDataSources } from '../user-data/data-sources.ts';
import { toolFailure } from './tool-result.ts';
import { defineTool } from './trainer-tool.ts';

/** What fetch_data reports: each source's formatted text, and why any source failed. */
export interface FetchDataResult {
  data: Partial<Record<DataSourceName, string>>;
  errors?: Partial<Record<DataSourceName, string>>;
}

/**
 * Loads data sources into the context, all at once (spec 001 §12.4: in parallel). A source that
 * fails does not spoil the others: the call fails only when none could be fetched.
 */
export const fetchDataTool = defineTool<typeof FetchDataParamsSchema, FetchDataResult>({
  name: 'fetch_data',
  description:
    'Fetch additional data sources into context: user_profile, category_goals, muscle_goals, active_preferences, ' +
    'workout_history (params: limit, days_back), exercise_distribution (params: days_back), user_settings, ' +
    'all_locations. Only fetch what is missing from the context.',
  parameters: FetchDataParamsSchema,
  terminal: false,
  statusMessage: { start: 'Gathering your info...', done: 'Context ready' },
  async execute(args, ctx) {
    if (!ctx.dataSources) return toolFailure('data_unavailable', 'User data is not available in this runtime.');
    const fetched = await fetchMultipleDataSources(ctx.dataSources, args.sources, ctx.userId, args.params ?? {});
    const data: FetchDataResult['data'] = {};
    const errors: NonNullable<FetchDataResult['errors']> = {};
    for (const outcome of fetched) {
      if (outcome.error === undefined) data[outcome.source] = outcome.formatted;
      else errors[outcome.source] = outcome.error;
    }
    const failed = Object.keys(errors);
    if (failed.length === args.sources.length) {
      return toolFailure(
        'fetch_failed',
        `Could not fetch ${failed.map((source) => `${source} (${errors[source as DataSourceName]})`).join(', ')}.`,
        failed.map((source) => ({ path: 'sources', message: `${source}: ${errors[source as DataSourceName]}` })),
      );
    }
    return failed.length > 0 ? { success: true, data, errors } : { success: true, data };
  },
  formatResult(result) {
    const blocks = Object.entries(result.data).map(
      ([source, text]) => `<knowledge source="${source}">\n${text}\n</knowledge>`,
    );
    const failures = Object.entries(result.errors ?? {}).map(([source, why]) => `Could not fetch ${source}: ${why}`);
    return [...blocks, ...failures].join('\n');
  },
});
