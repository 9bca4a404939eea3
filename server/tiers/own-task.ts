import type { Context } from 'hono';
import { NotFoundError } from '../../protocol/runtime/runtime-error.ts';

/**
 * The service's answer about the task of the route's `:id`, or a 404 that reads the same for a
 * missing task and another user's (the service answers `undefined` for both).
 */
export function ownTask<T>(c: Context, found: T | undefined): T {
  if (found === undefined) throw new NotFoundError(`Tiers task ${c.req.param('id') ?? ''}`);
  return found;
}
