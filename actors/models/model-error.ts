import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** What went wrong with a model call, coarse enough for the loop and the client to act on. */
type ModelErrorKind =
  /** The API refused the request as sent (400, 404, 413, 422): a bug here, retrying will not help. */
  | 'invalid_request'
  /** The key is missing, wrong or lacks permission (401, 403): fix `ANTHROPIC_API_KEY`. */
  | 'authentication'
  /** Too many requests or tokens (429): wait and retry. */
  | 'rate_limited'
  /** The API failed or is overloaded (5xx, 529): retry later. */
  | 'server_error'
  /** The API could not be reached, or did not answer in time. */
  | 'connection'
  | 'timeout'
  /** The caller aborted the call (client disconnected, session cancelled). */
  | 'aborted'
  /** The API answered something this runtime cannot read. */
  | 'invalid_response';

const STATUS: Record<ModelErrorKind, number> = {
  invalid_request: 502,
  authentication: 502,
  rate_limited: 503,
  server_error: 502,
  connection: 502,
  timeout: 504,
  aborted: 499,
  invalid_response: 502,
};

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(['rate_limited', 'server_error', 'connection', 'timeout']);

/**
 * A model call failed (spec 001 §3.2 "LLM error": fatal, the loop logs it, ends the session with
 * `error` and reports it). `upstreamStatus` is the API's HTTP status when it answered.
 */
export class ModelError extends RuntimeError {
  override name = 'ModelError';
  readonly retryable: boolean;
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly provider: string,
    readonly upstreamStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(`model_${kind}`, message, STATUS[kind]);
    this.retryable = RETRYABLE.has(kind);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** The kind of an API error by its HTTP status. */
export function modelErrorKindOf(status: number): ModelErrorKind {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}
