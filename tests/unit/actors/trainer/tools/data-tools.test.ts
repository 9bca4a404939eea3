import { describe, expect, it } from 'vitest';
import type { DataSource, DataSourceRegistry } from '../../../../../actors/trainer/user-data/data-sources.ts';
import { executeTool } from '../../../../../actors/trainer/tools/index.ts';
import type { FetchDataResult } from '../../../../../actors/trainer/tools/fetch-data.ts';
import type { SetCurrentLocationResult } from '../../../../../actors/trainer/tools/set-current-location.ts';
import { DataSourceNameSchema } from '../../../../../protocol/trainer/data-source.ts';
import {
  createToolTestContext,
  failureOf,
  successOf,
  type ToolTestContext,
} from '../../../../support/trainer/trainer-tool-fixtures.ts';

/** A registry whose fetches wait until released, recording when each started. */
function deferredRegistry(fail: readonly string[] = []) {
  const started: string[] = [];
  const releases: (() => void)[] = [];
  const entry = (name: string): DataSource<string> => ({
    description: name,
    displayName: name,
    fetch: (userId, params) => {
      started.push(name);
      return new Promise<string>((resolve, reject) => {
        releases.push(() =>
          fail.includes(name)
            ? reject(new Error(`${name} is down`))
            : resolve(`${name} of ${userId} ${JSON.stringify(params ?? {})}`),
        );
      });
    },
    format: (raw) => raw,
  });
  const registry = Object.fromEntries(
    DataSourceNameSchema.options.map((name) => [name, entry(name)]),
  ) as unknown as DataSourceRegistry;
  return { registry, started, releaseAll: () => releases.forEach((release) => release()) };
}

describe('fetch_data', () => {
  it('fetches every source in parallel (spec 001 §12.4) and passes per-source params', async () => {
    const { registry, started, releaseAll } = deferredRegistry();
    const ctx = createToolTestContext({ dataSources: registry });
    const pending = executeTool(
      'fetch_data',
      { sources: ['user_profile', 'workout_history', 'muscle_goals'], params: { workout_history: { days_back: 30 } } },
      ctx,
    );
    await new Promise((resolve) => setImmediate(resolve));
    // All three started before any finished: none waited for another.
    expect(started).toEqual(['user_profile', 'workout_history', 'muscle_goals']);
    releaseAll();
    const result = successOf<FetchDataResult>(await pending);
    expect(result.data.workout_history).toBe('workout_history of user-1 {"days_back":30}');
    expect(result.data.user_profile).toBe('user_profile of user-1 {}');
    expect(result.errors).toBeUndefined();
  });

  it('formats each source as a knowledge block', async () => {
    const ctx = createToolTestContext();
    await ctx.userData.put('user-1', 'user_settings', { weight_unit: 'lb' });
    const output = await executeTool('fetch_data', { sources: ['user_settings'] }, ctx);
    expect(output.rawFormatted).toBe('<knowledge source="user_settings">\nWeight: lb\nDistance: km\n</knowledge>');
  });

  it('keeps what it could fetch when one source fails, and fails when all do', async () => {
    const partial = deferredRegistry(['muscle_goals']);
    const pending = executeTool(
      'fetch_data',
      { sources: ['user_profile', 'muscle_goals'] },
      createToolTestContext({ dataSources: partial.registry }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    partial.releaseAll();
    const output = await pending;
    const result = successOf<FetchDataResult>(output);
    expect(Object.keys(result.data)).toEqual(['user_profile']);
    expect(result.errors).toEqual({ muscle_goals: 'muscle_goals is down' });
    expect(output.rawFormatted).toContain('Could not fetch muscle_goals');

    const none = deferredRegistry(['user_profile']);
    const failing = executeTool(
      'fetch_data',
      { sources: ['user_profile'] },
      createToolTestContext({ dataSources: none.registry }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    none.releaseAll();
    expect(failureOf(await failing).error_code).toBe('fetch_failed');
  });

  it('refuses an unknown source or a repeated one, naming the field', async () => {
    const unknown = failureOf(await executeTool('fetch_data', { sources: ['bank_account'] }, createToolTestContext()));
    expect(unknown.issues?.[0]?.path).toBe('sources.0');
    const twice = failureOf(
      await executeTool('fetch_data', { sources: ['user_profile', 'user_profile'] }, createToolTestContext()),
    );
    expect(twice.error).toContain('each source may be named once');
    const badParams = failureOf(
      await executeTool(
        'fetch_data',
        { sources: ['workout_history'], params: { workout_history: { days: 3 } } },
        createToolTestContext(),
      ),
    );
    expect(badParams.error).toContain('params.workout_history');
  });

  it('fails cleanly when no data sources are wired', async () => {
    const { dataSources: _none, ...ctx } = createToolTestContext();
    expect(failureOf(await executeTool('fetch_data', { sources: ['user_profile'] }, ctx)).error_code).toBe(
      'data_unavailable',
    );
  });
});

async function withLocations(): Promise<ToolTestContext> {
  const ctx = createToolTestContext();
  await ctx.userData.put('user-1', 'all_locations', {
    locations: [
      {
        id: 'loc-home',
        name: 'Home Gym',
        current_location: true,
        equipment: [
          { name: 'Dumbbells', type: 'free_weights', weights: [5, 10], weight_unit: 'kg' },
          { name: 'Pull-up Bar' },
        ],
      },
      { id: 'loc-city', name: 'City Gym', description: 'Downtown', equipment: [] },
      { id: 'loc-park-1', name: 'Park' },
      { id: 'loc-park-2', name: 'park' },
    ],
  });
  return ctx;
}

const currentFlags = async (ctx: ToolTestContext) =>
  (await ctx.userData.get('user-1', 'all_locations')).locations.filter((l) => l.current_location).map((l) => l.id);

describe('set_current_location', () => {
  it('moves the flag by id: all flags cleared, then the target set (spec 001 §12.4)', async () => {
    const ctx = await withLocations();
    const result = successOf<SetCurrentLocationResult>(
      await executeTool('set_current_location', { location_id: 'loc-city' }, ctx),
    );
    expect(result.location).toEqual({
      id: 'loc-city',
      name: 'City Gym',
      description: 'Downtown',
      equipment_count: 0,
      equipment_summary: 'No equipment (bodyweight only)',
    });
    expect(await currentFlags(ctx)).toEqual(['loc-city']);
  });

  it('finds a location by name, case-insensitively, and summarizes its equipment', async () => {
    const ctx = await withLocations();
    await executeTool('set_current_location', { location_id: 'loc-city' }, ctx);
    const result = successOf<SetCurrentLocationResult>(
      await executeTool('set_current_location', { location_name: '  home GYM ' }, ctx),
    );
    expect(result.location).toMatchObject({ id: 'loc-home', equipment_count: 2 });
    expect(result.location.equipment_summary).toBe('Dumbbells (free_weights): 5, 10kg; Pull-up Bar');
    expect(await currentFlags(ctx)).toEqual(['loc-home']);
  });

  it('prefers the id, and falls back to the name when the id is unknown', async () => {
    const ctx = await withLocations();
    const result = successOf<SetCurrentLocationResult>(
      await executeTool('set_current_location', { location_id: 'loc-gone', location_name: 'city gym' }, ctx),
    );
    expect(result.location.id).toBe('loc-city');
  });

  it('fails for an unknown location or an ambiguous name, changing nothing', async () => {
    const ctx = await withLocations();
    const missing = failureOf(await executeTool('set_current_location', { location_name: 'Beach' }, ctx));
    expect(missing.error_code).toBe('location_not_found');
    expect(missing.error).toContain('Home Gym');
    expect(failureOf(await executeTool('set_current_location', { location_id: 'nope' }, ctx)).issues?.[0]?.path).toBe(
      'location_id',
    );
    const ambiguous = failureOf(await executeTool('set_current_location', { location_name: 'PARK' }, ctx));
    expect(ambiguous.error_code).toBe('ambiguous_location');
    expect(ambiguous.error).toContain('loc-park-1');
    expect(await currentFlags(ctx)).toEqual(['loc-home']);
  });

  it('needs location_id or location_name', async () => {
    const failure = failureOf(await executeTool('set_current_location', {}, await withLocations()));
    expect(failure.error_code).toBe('invalid_arguments');
    expect(failure.error).toContain('location_id or location_name');
  });
});
