import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';

/** Why a tool call failed; the loop logs it and carries on (spec 001 §12.1). */
export type ToolFailureCode =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'invalid_workout'
  | 'no_active_workout'
  | 'exercise_not_found'
  | 'location_not_found'
  | 'ambiguous_location'
  | 'data_unavailable'
  | 'fetch_failed'
  | 'execution_failed';

/** A failed call: `error` says what went wrong and what to do; `issues` name bad fields. */
export interface ToolFailure {
  success: false;
  error_code: ToolFailureCode;
  error: string;
  issues?: ErrorIssue[];
}

/** A successful call and what the tool reports. */
export type ToolSuccess<T extends object = Record<string, unknown>> = { success: true } & T;

export type ToolResult<T extends object = Record<string, unknown>> = ToolSuccess<T> | ToolFailure;

/** Builds a failed result. */
export function toolFailure(error_code: ToolFailureCode, error: string, issues?: ErrorIssue[]): ToolFailure {
  return issues && issues.length > 0
    ? { success: false, error_code, error, issues }
    : { success: false, error_code, error };
}

/** UI progress messages of a tool (spec 001 §6.7). */
export interface StatusMessage {
  start: string;
  done: string;
}

/** Everything `executeTool` answers (spec 001 §6.2 `{ result, formatted, rawFormatted }` and more). */
export interface ToolOutput {
  tool: string;
  result: ToolResult<object>;
  /** The tool's text wrapped in XML, as it goes into the event stream and the model's context. */
  formatted: string;
  rawFormatted: string;
  status: 'done' | 'failed';
  /** True when the loop must stop after this call: a successful `idle` or `message_ask_user`. */
  terminal: boolean;
  statusMessage?: StatusMessage;
  /** An artifact the call created (generate_workout): the loop appends it as an `artifact` event. */
  createdArtifact?: Artifact;
  /** An artifact the call delivered (message_notify_user): it goes into the SSE `tool_result`. */
  deliveredArtifact?: Artifact;
}

/** Renders a failure for the model: the message, then one line per bad field. */
export function formatFailure(failure: ToolFailure): string {
  const lines = [`Error (${failure.error_code}): ${failure.error}`];
  for (const issue of failure.issues ?? []) lines.push(`- ${issue.path || '(arguments)'}: ${issue.message}`);
  return lines.join('\n');
}

/**
 * Wraps a tool's text in XML for the event stream (spec 001 §6.2 `wrapInXml`). A closing tag
 * inside the text is defused so user-written text cannot end the block early.
 */
export function wrapInXml(tool: string, raw: string, isError: boolean): string {
  const tag = isError ? 'tool_error' : 'tool_result';
  const name = tool.replace(/[^\w.-]/g, '_');
  const body = raw.replaceAll(`</${tag}>`, `&lt;/${tag}>`);
  return `<${tag} name="${name}">\n${body}\n</${tag}>`;
}
