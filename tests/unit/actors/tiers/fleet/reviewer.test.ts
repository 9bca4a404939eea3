import { describe, expect, it } from 'vitest';
import type { FleetSandbox } from '../../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { OFFLINE_SPECIALISTS } from '../../../../../actors/tiers/fleet/offline-specialists.ts';
import { createReviewer } from '../../../../../actors/tiers/fleet/reviewer.ts';
import type { CallsReport } from '../../../../../actors/tiers/fleet/fleet-sandbox.ts';
import { FAMILY_PROBLEMS } from './family-problems.ts';

const problem = FAMILY_PROBLEMS['binary-search']!;
const request = (code: string | undefined, claimed_complexity?: string) => ({
  problem,
  code,
  task_type: 'review_complexity',
  objective: 'Check the complexity claim',
  constraints: [],
  ...(claimed_complexity ? { claimed_complexity } : {}),
});

/** A sandbox that answers the reviewer's timer with timings of a chosen cost: 1 call when probing, else 1000 per sample. */
function syntheticSandbox(costMs: (n: number) => number, onRun: () => void = () => undefined): FleetSandbox {
  return {
    runTests: () => Promise.reject(new Error('not used')),
    runCalls: async (input): Promise<CallsReport> => {
      onRun();
      const results = input.calls.map(([args, minMs]) => {
        const first = (args as unknown[])[0];
        const calls = minMs === 0 ? 1 : 1000;
        return { ok: true, value: calls, durationMs: calls * costMs(Array.isArray(first) ? first.length : 0) };
      });
      return { verdict: 'ok', results, durationMs: 1 };
    },
  };
}

describe('reviewer', () => {
  it('accepts a claim its timings bear out, growing the size until calls are slow', async () => {
    const result = await createReviewer(syntheticSandbox((n) => 1e-6 * n))(request('function search() {}', 'O(n)'));
    expect(result.status).toBe('success');
    expect(result.summary).toMatch(/O\(n\) or O\(n log n\).*the claim O\(n\) holds/);
    expect(result.artifacts[0]?.metadata).toMatchObject({
      verdict: 'holds',
      sizes: [128, 256, 512, 1024, 2048, 4096],
    });
    expect(result.confidence).toBe(1);
  });

  it('stops doubling once a call is slow (quadratic solutions stay short)', async () => {
    const result = await createReviewer(syntheticSandbox((n) => 1e-5 * n * n))(
      request('function search() {}', 'O(n^2)'),
    );
    expect(result.artifacts[0]?.metadata.sizes).toEqual([128, 256, 512, 1024, 2048]);
    expect(result.status).toBe('success');
  });

  it('times an O(n^2) solution claimed O(log n) in the sandbox and rejects the claim', async () => {
    const quadratic = `function search(nums, target) {
  let found = -1;
  for (let i = 0; i < nums.length; i++)
    for (let j = 0; j < nums.length; j++) if (i === j && nums[j] === target) found = j;
  return found;
}`;
    const result = await OFFLINE_SPECIALISTS.reviewer!.run(request(quadratic, 'O(log n)'));
    expect(result, result.log.join('\n')).toMatchObject({
      status: 'failed',
      error_type: 'complexity_claim_violated',
      recoverable: false,
    });
    expect(result.artifacts[0]?.metadata.measured).toMatch(/O\(n\^2\)|O\(n\^3\)/);
  }, 60_000);

  it('reads the claim from the constraints when none is given', async () => {
    const result = await createReviewer(syntheticSandbox(() => 1e-4))({
      ...request('function search() {}'),
      constraints: ['O(log n) time complexity required'],
    });
    expect(result.summary).toMatch(/the claim O\(log n\) holds/);
  });

  it('refuses python, a missing solution and a claim it cannot time', async () => {
    const reviewer = createReviewer(syntheticSandbox(() => 1));
    expect(await reviewer({ ...request('x', 'O(n)'), problem: { ...problem, language: 'python' } })).toMatchObject({
      error_type: 'unsupported_language',
    });
    expect(await reviewer(request(undefined, 'O(n)'))).toMatchObject({ error_type: 'missing_code' });
    expect(await reviewer(request('function search() {}', 'O(2^n)'))).toMatchObject({
      error_type: 'unsupported_claim',
    });
  });

  it('returns the timings so far when aborted', async () => {
    const controller = new AbortController();
    let runs = 0;
    const sandbox = syntheticSandbox(
      (n) => 1e-6 * n,
      () => {
        runs += 1;
        if (runs === 2) controller.abort(); // during the measuring run, after the probe
      },
    );
    const result = await createReviewer(sandbox)({
      ...request('function search() {}', 'O(n)'),
      signal: controller.signal,
    });
    expect(result).toMatchObject({ status: 'partial', error_type: 'cancelled' });
    expect(result.artifacts[0]?.metadata).toMatchObject({
      verdict: 'cancelled',
      sizes: [128, 256, 512, 1024, 2048, 4096],
    });
    expect(runs).toBe(2);
  });
});
