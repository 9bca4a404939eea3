import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../../server/app.ts';
import { signToken } from '../../../server/auth.ts';
import { readJsonBody } from '../../../server/json-body.ts';
import { HttpErrorBodySchema } from '../../../protocol/runtime/http-error.ts';
import { sign } from 'hono/jwt';

const secret = 'test-secret-that-is-long-enough-for-hs256';

function app() {
  const echo = new Hono().post('/', async (c) => {
    const body = await readJsonBody(c, z.strictObject({ name: z.string().min(1), age: z.number().int() }));
    return c.json(body, 201);
  });
  return createApp({ jwtSecret: secret, maxBodyBytes: 1024, protectedRoutes: { '/echo': echo } });
}

async function errorOf(response: Response) {
  return HttpErrorBodySchema.parse(await response.json()).error;
}

describe('server foundation', () => {
  it('serves /health without a token', async () => {
    const response = await app().request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('answers 401 in the one error shape without a token, with a bad one, or one signed elsewhere', async () => {
    const foreign = await signToken('u1', 'another-secret-entirely-different');
    for (const authorization of [undefined, 'Bearer nonsense', `Bearer ${foreign}`]) {
      const response = await app().request('/me', authorization ? { headers: { authorization } } : {});
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('unauthorized');
    }
  });

  it('refuses a token whose sub is missing', async () => {
    const token = await sign({ exp: Math.floor(Date.now() / 1000) + 60 }, secret, 'HS256');
    const response = await app().request('/me', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = await signToken('u1', secret, -10);
    const response = await app().request('/me', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
  });

  it('reads the user id from sub', async () => {
    const token = await signToken('user-42', secret);
    const response = await app().request('/me', { headers: { authorization: `Bearer ${token}` } });
    expect(await response.json()).toEqual({ user_id: 'user-42' });
  });

  it('answers an unknown route 404 in the one error shape', async () => {
    const response = await app().request('/health/nowhere');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('not_found');
  });

  it('answers a bad body 400 naming each field', async () => {
    const token = await signToken('u1', secret);
    const response = await app().request('/echo', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', age: 1.5, extra: true }),
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('validation_failed');
    expect(error.issues?.map((i) => i.path).sort()).toEqual(['', 'age', 'name']);
  });

  it('answers malformed JSON 400', async () => {
    const token = await signToken('u1', secret);
    const response = await app().request('/echo', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_json');
  });

  it('answers a body over the limit 413', async () => {
    const token = await signToken('u1', secret);
    const response = await app().request('/echo', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2048), age: 1 }),
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
  });

  it('accepts a good body', async () => {
    const token = await signToken('u1', secret);
    const response = await app().request('/echo', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', age: 36 }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ name: 'Ada', age: 36 });
  });
});
