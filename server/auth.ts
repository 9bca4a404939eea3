import type { Context, MiddlewareHandler } from 'hono';
import { jwt, sign } from 'hono/jwt';
import { BoundedCache } from '../actors/runtime/bounded-cache.ts';
import { RuntimeError } from '../protocol/runtime/runtime-error.ts';

/** What a verified token says (its claims, as hono's verifier returns them). */
type Claims = { sub: string; exp?: number };

/** How many verified tokens are remembered, and for how long each stays unused. */
export interface VerifiedTokens {
  /** Tokens kept at most (least recently used dropped first); 10,000 by default. */
  maxEntries?: number;
  /** A token not presented for this long is verified again; 5 minutes by default. */
  idleMs?: number;
  /** Milliseconds now; `Date.now` by default. */
  now?: () => number;
}

/** Tokens longer than this are checked every time, never remembered (a HS256 token of ours is about 150 bytes). */
const LONGEST_REMEMBERED = 2048;

/**
 * The token of an `Authorization` header, read as hono's jwt middleware reads it (the scheme
 * in any case, any run of whitespace), so every way of writing one token is one entry.
 */
function bearerToken(header: string | undefined): string | undefined {
  const parts = header?.split(/\s+/);
  return parts?.length === 2 && parts[0]!.toLowerCase() === 'bearer' ? parts[1] : undefined;
}

/**
 * Verifies `Authorization: Bearer <JWT>` (HS256) with hono's jwt middleware; `sub` is the user id.
 * A token verified once is remembered (the whole token, signature and all, under the one
 * secret), so a client's next requests skip the signature check, which costs more than a whole
 * bare request; its `exp` is still checked on every use. A token never verified, a changed
 * one, an expired one or a very long one always goes through the middleware.
 */
export function bearerAuth(secret: string, remembered: VerifiedTokens = {}): MiddlewareHandler {
  const verify = jwt({ secret, alg: 'HS256' });
  const now = remembered.now ?? Date.now;
  const verified = new BoundedCache<string, Claims>({
    maxEntries: remembered.maxEntries ?? 10_000,
    idleMs: remembered.idleMs ?? 5 * 60_000,
    now,
  });
  return async function bearerAuth(c, next) {
    const token = bearerToken(c.req.header('authorization'));
    const known = token === undefined ? undefined : verified.get(token);
    if (known && (known.exp === undefined || known.exp > Math.floor(now() / 1000))) {
      c.set('jwtPayload', known);
      return next();
    }
    if (known) verified.delete(token!);
    await verify(c, async () => {
      const claims = c.get('jwtPayload') as { sub?: unknown; exp?: number } | undefined;
      if (typeof claims?.sub !== 'string' || claims.sub.length === 0) {
        throw new RuntimeError('unauthorized', 'The token has no "sub" claim naming the user.', 401);
      }
      if (token !== undefined && token.length <= LONGEST_REMEMBERED)
        verified.set(token, Object.freeze(claims as Claims));
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
