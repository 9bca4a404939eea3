import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RetryLaterError, RuntimeError } from '../../../../protocol/runtime/runtime-error.ts';
import { backoffMs, DEFAULT_INGRESS_RETRY, type IngressRetry } from '../../../../server/restate/ingress-post.ts';
import { RemoteRun } from '../../../../server/restate/remote-run.ts';
import { FakeIngress } from '../../../support/restate/fake-ingress.ts';
import { freePort } from '../../../support/restate/free-port.ts';

/*
 * A run on Restate as the API process sees it, against a stand-in for the ingress: a send Restate
 * refuses is never taken for journaled, a send it does not answer is tried a bounded number of
 * times with growing jittered waits and then fails as a 503 with Retry-After, and a caller
 * waiting on such a send hears it (never hangs).
 */
let ingress: FakeIngress;
let waits: number[];

/** Five tries, waits recorded and not slept (the waits are the backoff's, not a clock's). */
const retry: IngressRetry = {
  ...DEFAULT_INGRESS_RETRY,
  attempts: 5,
  timeoutMs: 5_000,
  sleep: async (ms) => void waits.push(ms),
  random: () => 0.5,
};

beforeAll(async () => {
  ingress = await FakeIngress.start();
});
afterAll(() => ingress.close());
beforeEach(() => {
  ingress.requests.length = 0;
  ingress.statuses = [];
  waits = [];
});

function run(partition: string, ingressUrl = ingress.url) {
  return new RemoteRun({
    ingressUrl,
    system: 'nutrition',
    partition,
    idOf: (envelope) => (envelope as { message_id: string }).message_id,
    retry,
  });
}

const intake = (id: string) => ({ type: 'pipeline.start', envelope: { message_id: id } });

describe('RemoteRun sends', () => {
  it('rejects journaled with 502 restate_refused when Restate refuses the send (4xx), trying once', async () => {
    ingress.statuses = [404];
    const remote = run('r-refused');
    remote.send(intake('m1'));
    const error = await remote.journaled('m1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    expect(error).toMatchObject({ code: 'restate_refused', status: 502 });
    expect((error as Error).message).toContain('404');
    expect(ingress.to('deliver')).toHaveLength(1);
    await expect(remote.delivered()).rejects.toThrow(/refused/);
  });

  it('tries a send Restate answers with 5xx a bounded number of times under one key, then rejects 503 with Retry-After', async () => {
    ingress.statuses = [503, 503, 503, 503, 503, 503];
    const remote = run('r-down');
    remote.send(intake('m2'));
    const error = await remote.journaled('m2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryLaterError);
    expect(error).toMatchObject({ code: 'restate_unavailable', status: 503, retryAfterSeconds: 2 });
    const tries = ingress.to('deliver');
    expect(tries).toHaveLength(retry.attempts);
    expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set(['m2']));
    // Exponential, each jittered: 100, 200, 400, 800 ms caps, at random 0.5 three quarters of each.
    expect(waits).toEqual([75, 150, 300, 600]);
  });

  it('gives up on a Restate that refuses connections after the bounded tries (503)', async () => {
    const closed = await freePort();
    const remote = run('r-gone', `http://127.0.0.1:${closed}`);
    remote.send(intake('m3'));
    await expect(remote.journaled('m3')).rejects.toMatchObject({ code: 'restate_unavailable', status: 503 });
    expect(waits).toHaveLength(retry.attempts - 1);
  });

  it('takes a send that Restate answers after passing failures, once, under its envelope id', async () => {
    ingress.statuses = [502, 500];
    ingress.after = () => ({ snapshot: { value: 'intake', context: {}, status: 'active' } as never, messages: [] });
    const remote = run('r-flaky');
    remote.send(intake('m4'));
    await expect(remote.journaled('m4')).resolves.toBeUndefined();
    expect(ingress.to('deliver').map((t) => t.idempotencyKey)).toEqual(['m4', 'm4', 'm4']);
    expect(remote.snapshot().value).toBe('intake');
  });

  it('rejects an until waiting on a send that failed instead of waiting forever', async () => {
    ingress.statuses = [400];
    const remote = run('r-until');
    remote.send(intake('m5'));
    const waiting = remote.until((snapshot) => snapshot.value === 'output_ready');
    await expect(waiting).rejects.toMatchObject({ code: 'restate_refused' });
    remote.stop();
  });

  it('stops waiting, and reading the run for it, once the until is aborted', async () => {
    ingress.views.set('r-abort', {
      snapshot: { value: 'intake', context: {}, status: 'active' } as never,
      messages: [],
    });
    const remote = run('r-abort');
    const leave = new AbortController();
    const waiting = remote.until((snapshot) => snapshot.value === 'output_ready', leave.signal);
    await expect.poll(() => ingress.to('view').length).toBeGreaterThan(1);
    leave.abort(new Error('the client left'));
    await expect(waiting).rejects.toThrow('the client left');
    const reads = ingress.to('view').length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ingress.to('view').length).toBeLessThanOrEqual(reads + 1);
    await expect(remote.until(() => false, leave.signal)).rejects.toThrow('the client left');
    remote.stop();
  });

  it('keeps the order of sends and goes on after one failed', async () => {
    ingress.statuses = [409];
    const remote = run('r-order');
    remote.send(intake('a'));
    remote.send(intake('b'));
    await expect(remote.journaled('a')).rejects.toThrow();
    await expect(remote.journaled('b')).resolves.toBeUndefined();
    expect(ingress.to('deliver').map((t) => t.idempotencyKey)).toEqual(['a', 'b']);
  });
});

describe('backoffMs', () => {
  it('waits in the upper half of a cap that doubles from baseMs up to maxMs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (baseMs, extra, attempt, random) => {
          const maxMs = baseMs + extra;
          const cap = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
          const wait = backoffMs({ baseMs, maxMs, random: () => random }, attempt);
          expect(wait).toBeGreaterThanOrEqual(cap / 2);
          expect(wait).toBeLessThanOrEqual(cap);
          expect(wait).toBeLessThanOrEqual(maxMs);
        },
      ),
      { numRuns: 300 },
    );
  });
});
