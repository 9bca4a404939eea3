import { ConflictError } from '../../../protocol/runtime/runtime-error.ts';

/**
 * What a journal raises when the (partition, sequence number) it was about to write is taken:
 * the `23505` duplicate-key error of spec 001 §7.5. Nothing was written, so the append may be
 * tried again. The file and memory journals allocate sequence numbers atomically and never raise
 * it; a journal shared between processes (a server-grade store) would.
 */
export class DuplicateSequenceError extends Error {
  override name = 'DuplicateSequenceError';
  constructor(
    readonly partition: string,
    readonly seq: number,
  ) {
    super(`Sequence number ${seq} of ${partition} is already taken.`);
  }
}

/** How appends are retried on a duplicate sequence number; injectable so tests never sleep. */
export interface SequenceRetryOptions {
  /** Retries after the first attempt (spec 001 §7.5: up to 5). */
  maxRetries?: number;
  /** The longest pause before the first retry; later retries may wait longer. */
  baseDelayMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` and, while it fails with a {@link DuplicateSequenceError}, waits a random
 * pause (0 to `baseDelayMs * retryNumber`) and runs it again, at most `maxRetries` times. Other
 * errors pass through at once. When the retries run out it throws a 409 `sequence_conflict`.
 */
export async function retryOnDuplicateSequence<T>(
  attempt: () => Promise<T>,
  options: SequenceRetryOptions = {},
): Promise<T> {
  const { maxRetries = 5, baseDelayMs = 50, random = Math.random, sleep = defaultSleep } = options;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DuplicateSequenceError)) throw error;
      if (retry >= maxRetries) {
        throw new ConflictError(
          'sequence_conflict',
          `Could not append to ${error.partition}: its next sequence number was taken ${retry + 1} times` +
            ` in a row. Too many concurrent writers; try the request again.`,
        );
      }
      await sleep(Math.floor(random() * baseDelayMs * (retry + 1)));
    }
  }
}
