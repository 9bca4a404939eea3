/**
 * What a thrown value says, for a message or a log line: an `Error`'s message, anything else as a
 * string (code may throw strings, and a rejected promise may hold anything).
 *
 * @example
 * `Task ${id} could not be journaled (${errorMessage(error)}).`
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
