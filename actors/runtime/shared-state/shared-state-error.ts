import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';

/** Codes of `SharedStateError`, each with the HTTP status a server would answer. */
const STATUS = {
  write_forbidden: 403,
  unknown_namespace: 400,
  invalid_key: 400,
  invalid_write: 400,
  scope_not_open: 400,
  cross_scope_write: 400,
  version_not_found: 404,
  update_contended: 409,
  journal_unavailable: 503,
} as const;

export type SharedStateErrorCode = keyof typeof STATUS;

/** A shared-state call refused or failed; `code` says why and the message says what to do. */
export class SharedStateError extends RuntimeError {
  override name = 'SharedStateError';
  declare readonly code: SharedStateErrorCode;
  constructor(code: SharedStateErrorCode, message: string) {
    super(code, message, STATUS[code]);
  }
}
