import { Hono } from 'hono';
import type { UserDataStore } from '../../actors/trainer/user-data/user-data-store.ts';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import { UserDataSourceNameSchema, type UserDataSourceName } from '../../protocol/trainer/data-source.ts';
import { userIdOf } from '../auth.ts';
import { readJsonBody } from '../json-body.ts';
import { z } from 'zod';

/** Short names for the documents, beside their source names (`/users/me/profile` = `/users/me/user_profile`). */
export const USER_DATA_ALIASES: Readonly<Record<string, UserDataSourceName>> = {
  profile: 'user_profile',
  settings: 'user_settings',
  locations: 'all_locations',
  preferences: 'active_preferences',
  history: 'workout_history',
};

function sourceOf(name: string): UserDataSourceName {
  // Own keys only: `constructor` or `toString` is not a document.
  const alias = Object.hasOwn(USER_DATA_ALIASES, name) ? USER_DATA_ALIASES[name] : undefined;
  const source = alias ?? UserDataSourceNameSchema.safeParse(name).data;
  if (source === undefined) {
    throw new NotFoundError(
      `User data "${name}" (use one of ${[...UserDataSourceNameSchema.options, ...Object.keys(USER_DATA_ALIASES)].join(', ')})`,
    );
  }
  return source;
}

/**
 * The user's own data (spec 001 §9), so a new user can set up the trainer from the API alone:
 * `GET /users/me` (every document), `GET`/`PUT /users/me/<source>` with the source names of
 * §6.5 (`user_profile`, `user_settings`, `all_locations`, `category_goals`, `muscle_goals`,
 * `active_preferences`, `workout_history`) or their short names. A `PUT` replaces the document;
 * an invalid one is a 400 naming the field, and nothing stored is lost.
 */
export function userRoutes(userData: UserDataStore) {
  return new Hono()
    .get('/me', async (c) => {
      const userId = userIdOf(c);
      const entries = await Promise.all(
        UserDataSourceNameSchema.options.map(async (source) => [source, await userData.get(userId, source)] as const),
      );
      return c.json({ user_id: userId, ...Object.fromEntries(entries) });
    })
    .get('/me/:source', async (c) => c.json(await userData.get(userIdOf(c), sourceOf(c.req.param('source')))))
    .put('/me/:source', async (c) => {
      const source = sourceOf(c.req.param('source'));
      const body = await readJsonBody(c, z.unknown());
      return c.json(await userData.put(userIdOf(c), source, body));
    });
}
