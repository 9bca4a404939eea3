import { Hono } from 'hono';
import { sign } from 'hono/jwt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bearerAuth, signToken, userIdOf, type VerifiedTokens } from '../../../server/auth.ts';

const SECRET = 'unit-secret-for-hs256-tokens-only';

function appWith(remembered: VerifiedTokens = {}) {
  return new Hono()
    .onError((error, c) => c.json({ error: String(error) }, 401))
    .use(bearerAuth(SECRET, remembered))
    .get('/me', (c) => c.json({ user: userIdOf(c) }));
}

const call = (app: Hono, token: string) => app.request('/me', { headers: { authorization: `Bearer ${token}` } });

describe('bearerAuth remembers verified tokens', () => {
  let verifications: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    verifications = vi.spyOn(crypto.subtle, 'verify');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('checks a signature once per token, and answers every request with its user', async () => {
    const app = appWith();
    const ada = await signToken('ada', SECRET);
    const bob = await signToken('bob', SECRET);
    for (const [token, user] of [
      [ada, 'ada'],
      [bob, 'bob'],
      [ada, 'ada'],
      [bob, 'bob'],
      [ada, 'ada'],
    ] as const) {
      const response = await call(app, token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ user });
    }
    expect(verifications).toHaveBeenCalledTimes(2);
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T00:00:00Z'));
    const app = appWith();
    const token = await signToken('ada', SECRET, 60);
    expect((await call(app, token)).status).toBe(200);
    vi.setSystemTime(new Date('2026-11-25T00:00:59Z'));
    expect((await call(app, token)).status).toBe(200);
    vi.setSystemTime(new Date('2026-11-25T00:01:00Z'));
    expect((await call(app, token)).status).toBe(401);
  });

  it('remembers a token once however its header is written, and never a very long one', async () => {
    const app = appWith();
    const token = await signToken('ada', SECRET);
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`, `Bearer\t${token}`]) {
      const response = await app.request('/me', { headers: { authorization: header } });
      expect(response.status).toBe(200);
    }
    expect(verifications).toHaveBeenCalledTimes(1);
    const long = await sign(
      { sub: 'bob', pad: 'x'.repeat(3000), exp: Math.floor(Date.now() / 1000) + 60 },
      SECRET,
      'HS256',
    );
    expect((await call(app, long)).status).toBe(200);
    expect((await call(app, long)).status).toBe(200);
    expect(verifications).toHaveBeenCalledTimes(3);
  });

  it('refuses a token whose signature was changed, after the genuine one was remembered', async () => {
    const app = appWith();
    const token = await signToken('ada', SECRET);
    expect((await call(app, token)).status).toBe(200);
    const [head, body, signature] = token.split('.');
    const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    expect((await call(app, `${head}.${body}.${flipped}`)).status).toBe(401);
    // The same claims signed under another secret are not the remembered token either.
    expect((await call(app, await signToken('ada', 'another-secret-entirely-different'))).status).toBe(401);
  });

  it('refuses a token without sub, and does not remember it', async () => {
    const app = appWith();
    const token = await sign({ exp: Math.floor(Date.now() / 1000) + 60 }, SECRET, 'HS256');
    expect((await call(app, token)).status).toBe(401);
    expect((await call(app, token)).status).toBe(401);
    expect(verifications).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries tokens, and verifies again one unused for idleMs', async () => {
    let now = Date.now();
    const app = appWith({ maxEntries: 2, idleMs: 1000, now: () => now });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((user) => signToken(user, SECRET)));
    for (const token of [a!, b!, c!]) await call(app, token); // 3 checks; a is dropped by c
    await call(app, c!);
    await call(app, b!);
    expect(verifications).toHaveBeenCalledTimes(3);
    await call(app, a!);
    expect(verifications).toHaveBeenCalledTimes(4);
    now += 1001;
    await call(app, a!);
    expect(verifications).toHaveBeenCalledTimes(5);
  });
});
