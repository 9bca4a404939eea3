/** What `untilAborted` resolves to when the signal fires first. */
export const ABORTED: unique symbol = Symbol('aborted');

/**
 * The promise's value, or ABORTED as soon as `signal` fires (the work itself is not stopped: a
 * sandbox run ends by its own time limit). Lets a specialist answer a cancellation promptly.
 *
 * @example const report = await untilAborted(sandbox.runTests(input), request.signal);
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
