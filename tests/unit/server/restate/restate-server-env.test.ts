import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { restateServerBinary, restateServerEnv } from '../../../../server/restate/restate-server.ts';

/*
 * The Restate server `npm run start:cluster` starts retries a failed invocation every 2 s at
 * most (its service processes are replaced within seconds), as the real binary reads its
 * environment (`--dump-config`), and an operator's own setting wins.
 */
const PORTS = { ingressPort: 18080, adminPort: 19070, nodePort: 15122 };

/** The `[default-retry-policy]` section the binary would run with. */
function retryPolicy(env: NodeJS.ProcessEnv): Record<string, string> {
  const dumped = spawnSync(restateServerBinary(), ['--dump-config'], {
    env: restateServerEnv(PORTS, env),
    encoding: 'utf8',
  });
  expect(dumped.status).toBe(0);
  const section = /\[default-retry-policy\]\n([\s\S]*?)\n\n/.exec(dumped.stdout)?.[1] ?? '';
  return Object.fromEntries(
    section.split('\n').map((line) => line.split(' = ').map((part) => part.replace(/^"|"$/g, '')) as [string, string]),
  );
}

describe('restateServerEnv', () => {
  it('retries every 2 s at most, from 100 ms, and pauses an invocation only after 1,800 tries', () => {
    expect(retryPolicy({ PATH: process.env.PATH })).toMatchObject({
      'initial-interval': '100ms',
      'max-interval': '2s',
      'max-attempts': '1800',
      'on-max-attempts': 'pause',
    });
  });

  it("keeps an operator's own retry policy", () => {
    const env = { PATH: process.env.PATH, RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '30s' };
    expect(retryPolicy(env)['max-interval']).toBe('30s');
  });
});
