/** One line of the console log (spec 001 §11.3), by event. */
export type ConsoleLogEntry =
  | { kind: 'user_message'; message: string }
  | { kind: 'llm_request'; model: string; estimatedTokens: number }
  | {
      kind: 'llm_response';
      text: string;
      totalTokens: number;
      cachedTokens: number;
      costCents: number;
      durationMs: number;
    }
  | { kind: 'tool_call'; tool: string; args: unknown }
  | { kind: 'tool_result'; tool: string; success: boolean; durationMs: number }
  | { kind: 'artifact'; type: string; title: string }
  | { kind: 'knowledge'; source: string; chars: number }
  | { kind: 'error'; message: string; context?: string | null | undefined }
  | { kind: 'session_end'; status: string; totalTokens: number; cachedTokens: number; costCents: number };

interface ConsoleLogOptions {
  /** How much of a tool call's JSON arguments to show before "..." (the spec's example shows 25). */
  argsPreviewChars?: number;
  /** How much of a user message or response text to show. */
  textPreviewChars?: number;
  /** Timestamps in UTC rather than local time. */
  utc?: boolean;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `HH:MM:SS.mmm`, local time unless `utc`. */
export function formatClock(at: Date, utc = false): string {
  const [h, m, s, ms] = utc
    ? [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()]
    : [at.getHours(), at.getMinutes(), at.getSeconds(), at.getMilliseconds()];
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms, 3)}`;
}

/** Token counts as the log shows them: 950, 2.1K, 1.3M. */
export function formatTokenCount(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  if (tokens >= 1000) return `${(tokens / 1000).toFixed(1)}K`;
  return String(tokens);
}

/** Cents as dollars with four decimals: 0.12 cents is `$0.0012`. */
export const formatDollars = (cents: number) => `$${(cents / 100).toFixed(4)}`;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The part after the session id: icon, event type, arrow, details. */
function formatLogBody(entry: ConsoleLogEntry, options: ConsoleLogOptions = {}): string {
  const textMax = options.textPreviewChars ?? 80;
  switch (entry.kind) {
    case 'user_message':
      return `👤 User: "${cut(oneLine(entry.message), textMax)}"`;
    case 'llm_request':
      return `📤 LLM Request → ${entry.model}  est. ${formatTokenCount(entry.estimatedTokens)} tokens`;
    case 'llm_response': {
      const text = entry.text.trim() === '' ? '(empty)' : `"${cut(oneLine(entry.text), textMax)}"`;
      const cached = entry.cachedTokens > 0 ? ` (${formatTokenCount(entry.cachedTokens)} cached)` : '';
      const seconds = `${(entry.durationMs / 1000).toFixed(1)}s`;
      return `📥 LLM Response ← ${text}  ${formatTokenCount(entry.totalTokens)} tokens${cached} | ${formatDollars(entry.costCents)} | ${seconds}`;
    }
    case 'tool_call':
      return `🔧 Tool Call → ${entry.tool}  ${cut(JSON.stringify(entry.args) ?? 'null', options.argsPreviewChars ?? 80)}`;
    case 'tool_result':
      return `🔧 Tool Result ← ${entry.tool}: ${entry.success ? '✓' : '✗'}  ${Math.round(entry.durationMs)}ms`;
    case 'artifact':
      return `📦 Artifact ← ${entry.type}  "${entry.title}"`;
    case 'knowledge':
      return `📚 Knowledge ← ${entry.source}  ${formatTokenCount(entry.chars)} chars`;
    case 'error':
      return `❌ Error: ${oneLine(entry.message)}${entry.context ? ` (${entry.context})` : ''}`;
    case 'session_end': {
      const cached = entry.cachedTokens > 0 ? ` (${formatTokenCount(entry.cachedTokens)} cached)` : '';
      return `🏁 Session ← ${entry.status}  ${formatTokenCount(entry.totalTokens)} tokens${cached} | ${formatDollars(entry.costCents)}`;
    }
  }
}

/**
 * One console line in the format of spec 001 §11.3: `TIMESTAMP [SESSION_ID] ICON Event Type ← details`,
 * the session id cut to its first 8 characters.
 *
 * @example
 * formatLogLine({ kind: 'user_message', message: 'Give me a chest workout' }, at, 'a1b2c3d4-...');
 * // '14:32:01.123 [a1b2c3d4] 👤 User: "Give me a chest workout"'
 */
export function formatLogLine(
  entry: ConsoleLogEntry,
  at: Date,
  sessionId: string,
  options: ConsoleLogOptions = {},
): string {
  return `${formatClock(at, options.utc)} [${sessionId.slice(0, 8)}] ${formatLogBody(entry, options)}`;
}

interface ConsoleLogSink extends ConsoleLogOptions {
  write?: (line: string) => void;
  now?: () => Date;
  /** False silences the log (tests, benchmarks). */
  enabled?: boolean;
}

/** A logger that writes §11.3 lines: `log(sessionId, entry)`. */
export function createConsoleLog(sink: ConsoleLogSink = {}): (sessionId: string, entry: ConsoleLogEntry) => void {
  const { write = (line: string) => console.log(line), now = () => new Date(), enabled = true, ...options } = sink;
  return (sessionId, entry) => {
    if (enabled) write(formatLogLine(entry, now(), sessionId, options));
  };
}
