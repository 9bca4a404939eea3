import { signToken } from '../../../server/auth.ts';
import { createApp } from '../../../server/app.ts';
import { tiersRoutes } from '../../../server/tiers/tiers-routes.ts';
import { FakeTiersService } from './fake-tiers-service.ts';

const SECRET = 'tiers-route-tests-secret';

/** The HTTP app with only the tiers routes, over a `FakeTiersService`, and a caller per user. */
export async function tiersRouteApp() {
  const service = new FakeTiersService();
  const app = createApp({ jwtSecret: SECRET, protectedRoutes: { '/tiers': tiersRoutes(service) } });
  const request = async (user: string | null, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (user !== null) headers['authorization'] = `Bearer ${await signToken(user, SECRET)}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    return app.request(path, init);
  };
  const call = async (user: string | null, method: string, path: string, body?: unknown) => {
    const response = await request(user, method, path, body);
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), response };
  };
  return { app, service, request, call };
}

/** A valid `POST /tiers/tasks` body: binary search over a sorted array. */
export function taskBody(changes: Record<string, unknown> = {}) {
  return {
    objective: 'Implement binary search with edge case handling',
    problem: {
      statement: 'Given a sorted array nums and a target, return its index, or -1 if absent.',
      function_name: 'search',
      language: 'javascript',
      test_cases: [
        { input: [[-1, 0, 3, 5, 9, 12], 9], expected: 4 },
        { input: [[-1, 0, 3, 5, 9, 12], 2], expected: -1 },
      ],
    },
    ...changes,
  };
}

/** SSE text as `{ event, data }` pairs, the data parsed as JSON. */
export function parseSseEvents(text: string) {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
}
