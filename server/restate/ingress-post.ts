import { RetryLaterError, RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** How a post to the Restate ingress is tried again while Restate does not answer (restarting, overloaded). */
export interface IngressRetry {
  /** Tries in all, the first included. */
  attempts: number;
  /** The first wait; each next one doubles, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
  /** How long one try may take before it is cut off and tried again (under the same idempotency key). */
  timeoutMs: number;
  /** What the caller's client is told to wait once the tries are spent (`Retry-After`, seconds). */
  retryAfterSeconds: number;
  /** Waits `ms`; tests pass one that resolves at once and records the waits. */
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1): the jitter of each wait. */
  random: () => number;
}

/** About 20 s of tries in all (waits of 0.1 s doubling to 2 s, each jittered in its upper half). */
export const DEFAULT_INGRESS_RETRY: IngressRetry = {
  attempts: 15,
  baseMs: 100,
  maxMs: 2_000,
  timeoutMs: 30_000,
  retryAfterSeconds: 2,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** The wait before try `attempt + 1` (attempt from 1): exponential, capped, jittered in [cap/2, cap). */
export function backoffMs(retry: Pick<IngressRetry, 'baseMs' | 'maxMs' | 'random'>, attempt: number): number {
  const cap = Math.min(retry.maxMs, retry.baseMs * 2 ** (attempt - 1));
  return cap / 2 + (retry.random() * cap) / 2;
}

/**
 * Posts `body` to `url` at the Restate ingress and resolves with the answer once Restate took it
 * (2xx). A refusal (4xx: no such service or handler, a bad request, a run that failed for good)
 * throws at once a 502 `restate_refused` naming the status. No answer (a refused connection, a
 * try cut off after `timeoutMs`, a 5xx) is tried again, under the same idempotency key (so a
 * try that did reach Restate is taken once), with exponential backoff and jitter; after
 * `attempts` tries it throws a 503 `restate_unavailable` with `Retry-After`, never waiting longer.
 *
 * Once `signal` aborts (its caller closing), it throws its reason at once, between tries or
 * cutting the one under way off.
 *
 * @example
 * const response = await postToIngress(`${ingressUrl}/nutrition-host/${runId}/deliver`, event, envelope.message_id);
 */
export async function postToIngress(
  url: string,
  body: unknown,
  idempotencyKey: string | undefined,
  retry: IngressRetry = DEFAULT_INGRESS_RETRY,
  signal?: AbortSignal,
): Promise<Response> {
  let last = 'no try was made';
  for (let attempt = 1; attempt <= retry.attempts; attempt++) {
    if (attempt > 1) await retry.sleep(backoffMs(retry, attempt - 1));
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(retry.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      signal?.throwIfAborted();
      last = error instanceof Error ? error.message : String(error);
      continue;
    }
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    if (response.status < 500)
      throw new RuntimeError(
        'restate_refused',
        `Restate refused ${new URL(url).pathname} (${response.status}): ${text}. Check that the service endpoint is registered with this Restate deployment.`,
        502,
      );
    last = `${response.status} ${text}`;
  }
  throw new RetryLaterError(
    'restate_unavailable',
    `Restate did not take ${new URL(url).pathname} after ${retry.attempts} tries (last: ${last}); try again in ${retry.retryAfterSeconds} s.`,
    503,
    retry.retryAfterSeconds,
  );
}
