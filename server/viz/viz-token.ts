import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { verify } from 'hono/jwt';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** The cookie that keeps a viewer's token once a page was opened with `?token=`. */
const VIZ_TOKEN_COOKIE = 'viz_token';

const unauthorized = (why: string) =>
  new RuntimeError('unauthorized', `${why} Open the page with ?token=<your JWT> (npm run token -- <userId>).`, 401);

/** The token a viewer presented: `?token=` first, else the cookie. */
function presentedToken(c: Context): string | undefined {
  return c.req.query('token') || getCookie(c, VIZ_TOKEN_COOKIE) || undefined;
}

/** Verifies a token (HS256, the API's secret) and returns its user id and expiry. */
async function verified(token: string, secret: string): Promise<{ userId: string; exp: number | undefined }> {
  let payload: Awaited<ReturnType<typeof verify>>;
  try {
    payload = await verify(token, secret, 'HS256');
  } catch {
    throw unauthorized('The token is invalid or expired.');
  }
  if (typeof payload.sub !== 'string' || payload.sub.length === 0)
    throw unauthorized('The token has no "sub" claim naming the user.');
  return { userId: payload.sub, exp: typeof payload.exp === 'number' ? payload.exp : undefined };
}

/**
 * The user watching a live run: EventSource cannot send an Authorization header, so the token
 * comes in the query or in the cookie the page set.
 */
export async function vizUserId(c: Context, secret: string): Promise<string> {
  const token = presentedToken(c);
  if (!token) throw unauthorized('Watching a run needs its owner’s token.');
  return (await verified(token, secret)).userId;
}

/** Keeps a valid `?token=` in an HttpOnly cookie for `/viz`, so the page can drop it from its URL. */
export async function rememberToken(c: Context, secret: string): Promise<void> {
  const token = c.req.query('token');
  if (!token) return;
  const { exp } = await verified(token, secret).catch(() => ({ exp: undefined, userId: '' }));
  if (exp === undefined) return;
  const maxAge = exp - Math.floor(Date.now() / 1000);
  if (maxAge > 0) setCookie(c, VIZ_TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/viz', maxAge });
}
