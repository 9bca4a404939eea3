import type { Context, MiddlewareHandler } from 'hono';
import { jwt, sign } from 'hono/jwt';
import { RuntimeError } from '../protocol/runtime/runtime-error.ts';

/** Verifies `Authorization: Bearer <JWT>` (HS256) with hono's jwt middleware; `sub` is the user id. */
export function bearerAuth(secret: string): MiddlewareHandler {
  const verify = jwt({ secret, alg: 'HS256' });
  return async function bearerAuth(c, next) {
    await verify(c, async () => {
      const sub = (c.get('jwtPayload') as { sub?: unknown } | undefined)?.sub;
      if (typeof sub !== 'string' || sub.length === 0) {
        throw new RuntimeError('unauthorized', 'The token has no "sub" claim naming the user.', 401);
      }
      await next();
    });
  };
}

/** The user id of an authenticated request. */
export function userIdOf(c: Context): string {
  return (c.get('jwtPayload') as { sub: string }).sub;
}

/** Signs a token for a user, valid for `ttlSeconds` (a day by default). */
export function signToken(userId: string, secret: string, ttlSeconds = 86_400): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: userId, iat: now, exp: now + ttlSeconds }, secret, 'HS256');
}
