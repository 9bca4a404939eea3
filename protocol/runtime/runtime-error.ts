import type { z } from 'zod';
import type { ErrorIssue } from './http-error.ts';

/**
 * The base of every error the runtime raises on purpose. `code` is a stable string (like zod's
 * issue codes); `status` is the HTTP status the server answers with; `issues` name bad fields.
 */
export class RuntimeError extends Error {
  override name = 'RuntimeError';
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 500,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
  }
}

/** Input that fails its schema; `issues` names each bad field. */
export class ValidationError extends RuntimeError {
  override name = 'ValidationError';
  declare readonly issues: ErrorIssue[];
  constructor(message: string, issues: ErrorIssue[], code = 'validation_failed') {
    super(code, message, 400, issues);
  }
}

/** A resource that does not exist, or belongs to someone else. */
export class NotFoundError extends RuntimeError {
  override name = 'NotFoundError';
  constructor(what: string) {
    super('not_found', `${what} was not found.`, 404);
  }
}

/** A request that the resource's current state does not allow. */
export class ConflictError extends RuntimeError {
  override name = 'ConflictError';
  constructor(code: string, message: string) {
    super(code, message, 409);
  }
}

/** A data file that cannot be read back; it is reported where it is read, never overwritten. */
export class DataFileCorruptError extends RuntimeError {
  override name = 'DataFileCorruptError';
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(
      'data_file_corrupt',
      `Data file ${file} is corrupt (${detail}). Nothing was overwritten: repair or move the file away, then try again.`,
    );
  }
}

/**
 * Work refused because there is no room for it now (never queued): answered with `status` and
 * a `Retry-After` header of `retryAfterSeconds`.
 */
export class RetryLaterError extends RuntimeError {
  override name = 'RetryLaterError';
  constructor(
    code: string,
    message: string,
    status: 429 | 503,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message, status);
  }
}

/** Refused because the server is at capacity for this kind of work: 503. */
export class OverloadedError extends RetryLaterError {
  override name = 'OverloadedError';
  constructor(what: string, retryAfterSeconds: number) {
    super(
      'overloaded',
      `The server is at capacity for ${what}; try again in ${retryAfterSeconds} s.`,
      503,
      retryAfterSeconds,
    );
  }
}

/** Refused because this user already has as much work under way as one user may: 429. */
export class TooManyRunsError extends RetryLaterError {
  override name = 'TooManyRunsError';
  constructor(what: string, limit: number, retryAfterSeconds: number) {
    super(
      'too_many_runs',
      `You have ${limit} ${what} under way, as many as one user may; try again in ${retryAfterSeconds} s.`,
      429,
      retryAfterSeconds,
    );
  }
}

/** Turns zod issues into the error shape's issues: a dotted path and a message each. */
export function toErrorIssues(issues: readonly z.core.$ZodIssue[]): ErrorIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
