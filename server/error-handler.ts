import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { HttpErrorBody } from '../protocol/runtime/http-error.ts';
import { RetryLaterError, RuntimeError } from '../protocol/runtime/runtime-error.ts';

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/** Answers with the one error shape of DESIGN.md. */
export function errorResponse(c: Context, status: ContentfulStatusCode, error: HttpErrorBody['error']) {
  return c.json({ error } satisfies HttpErrorBody, status);
}

/** Turns every error into the one error shape; anything unexpected is logged and answered 500. */
export const handleError: ErrorHandler = function handleError(err, c) {
  if (err instanceof RetryLaterError) c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
  if (err instanceof RuntimeError && (err.status < 500 || err instanceof RetryLaterError)) {
    const body: HttpErrorBody['error'] = { code: err.code, message: err.message };
    if (err.issues) body.issues = err.issues;
    return errorResponse(c, err.status as ContentfulStatusCode, body);
  }
  if (err instanceof HTTPException && err.status < 500) {
    const message =
      err.status === 401
        ? 'A valid bearer token is required: send "Authorization: Bearer <JWT>" (npm run token -- <userId> prints one).'
        : err.message || 'The request was refused.';
    return errorResponse(c, err.status, { code: CODES[err.status] ?? 'http_error', message });
  }
  console.error(err);
  return errorResponse(c, 500, {
    code: 'internal_error',
    message: 'Something went wrong on our side; the error was logged.',
  });
};

export const handleNotFound: NotFoundHandler = function handleNotFound(c) {
  return errorResponse(c, 404, { code: 'not_found', message: `No route ${c.req.method} ${c.req.path}.` });
};
