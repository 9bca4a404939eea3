import { FrozenPrefixFold } from '../../models/frozen-prefix-fold.ts';
import type { DataSourceName, DataSourceParamsMap } from '../../../protocol/trainer/data-source.ts';
import { DataSourceNameSchema } from '../../../protocol/trainer/data-source.ts';
import type { InitializerResponse, KnowledgeSelection } from '../../../protocol/trainer/initializer-response.ts';
import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';
import { DEFAULT_HISTORY_LIMIT } from '../user-data/data-sources-history.ts';
import { historyWindowOf } from './initializer-time-range.ts';

/** A source already in the session's context, with the window it was fetched with. */
export interface ExistingKnowledge {
  source: DataSourceName;
  /** Days of history it covers; null when fetched without a window (or not a history source). */
  days_back: number | null;
}

/** What the session already knows, as the initializer sees it (spec 001 §5.2 `getExistingKnowledge`). */
export interface KnowledgeState {
  existing: ExistingKnowledge[];
  /** Loaded sources that a later tool call changed (a logged workout, a new location): refresh candidates. */
  stale: DataSourceName[];
}

/** Tool calls that change a source after it was loaded. */
const CHANGES: Record<string, readonly DataSourceName[]> = {
  log_workout: ['workout_history', 'exercise_distribution'],
  set_current_location: ['all_locations'],
};

const WINDOWED: ReadonlySet<DataSourceName> = new Set(['workout_history', 'exercise_distribution']);

/** The window of a history knowledge text; the distribution states its own ("over the last N days"). */
function windowOf(source: DataSourceName, data: string): number | null {
  if (source === 'exercise_distribution') {
    const days = /\blast (\d+) days\b/.exec(data)?.[1];
    return days === undefined ? null : Number(days);
  }
  return source === 'workout_history' ? historyWindowOf(data) : null;
}

/** What the events so far say: the sources loaded, when a source last changed, and the changing calls awaiting their result. */
interface KnowledgeReading {
  readonly loaded: ReadonlyMap<DataSourceName, ExistingKnowledge & { at: number }>;
  readonly changedAt: ReadonlyMap<DataSourceName, number>;
  /** Call id -> tool name, for calls of the tools in `CHANGES` only. */
  readonly changing: ReadonlyMap<string, string>;
}

const NOTHING_KNOWN: KnowledgeReading = Object.freeze({ loaded: new Map(), changedAt: new Map(), changing: new Map() });

const changesOf = (tool: string | undefined) =>
  tool !== undefined && Object.hasOwn(CHANGES, tool) ? CHANGES[tool] : undefined;

/** Reads one more event into a new reading (`before` is left as it was; most events change nothing). */
function readEvent(before: KnowledgeReading, event: SessionEvent): KnowledgeReading {
  if (event.event_type === 'knowledge') {
    const source = DataSourceNameSchema.safeParse(event.data.source);
    if (!source.success) return before;
    const days = windowOf(source.data, event.data.data);
    const known = before.loaded.get(source.data);
    // A known window supersedes none (none means "the latest workouts, however old").
    const widest = known?.days_back == null ? days : days === null ? known.days_back : Math.max(known.days_back, days);
    const entry = {
      source: source.data,
      days_back: WINDOWED.has(source.data) ? widest : null,
      at: event.sequence_number,
    };
    return { ...before, loaded: new Map(before.loaded).set(source.data, entry) };
  }
  if (event.event_type === 'tool_call') {
    const { call_id: id, tool_name: tool } = event.data;
    if (changesOf(tool)) return { ...before, changing: new Map(before.changing).set(id, tool) };
    if (!before.changing.has(id)) return before;
    // The id now names a call that changes nothing.
    const changing = new Map(before.changing);
    changing.delete(id);
    return { ...before, changing };
  }
  if (event.event_type === 'tool_result' && event.data.success) {
    const sources = changesOf(before.changing.get(event.data.call_id));
    if (!sources) return before;
    const changedAt = new Map(before.changedAt);
    for (const source of sources) changedAt.set(source, event.sequence_number);
    return { ...before, changedAt };
  }
  return before;
}

/**
 * The reading after each event: a session's context events are the same frozen objects from one
 * turn to the next, so a turn reads only the events past those the previous turn read, not the
 * whole session (see `FrozenPrefixFold`).
 */
const readings = new FrozenPrefixFold<SessionEvent, KnowledgeReading>(
  readEvent,
  NOTHING_KNOWN,
  (event) => Object.isFrozen(event) && Object.isFrozen(event.data),
);

/**
 * Reads the knowledge loaded so far from the session's knowledge events, keeping for each source
 * its widest window, and marks as stale the sources a
 * successful log_workout or set_current_location changed after they were loaded.
 */
export function knowledgeStateOf(events: readonly SessionEvent[]): KnowledgeState {
  const { loaded, changedAt } = readings.fold(events);
  const existing = [...loaded.values()].map(({ source, days_back }) => ({ source, days_back }));
  const stale = [...loaded.values()]
    .filter(({ source, at }) => (changedAt.get(source) ?? 0) > at)
    .map(({ source }) => source);
  return { existing, stale };
}

/**
 * Applies the append-only rules of spec 001 §5.4 to any selector's answer, so a model cannot
 * re-fetch what is already loaded: a loaded source is appended again only with a wider window
 * (`expand_range`) or after it changed (`refresh_state`); otherwise it moves to `use_existing`.
 * Each source is appended at most once; a source not loaded is always `not_in_context`.
 */
export function applyAppendOnlyRules(response: InitializerResponse, state: KnowledgeState): InitializerResponse {
  const loaded = new Map(state.existing.map((entry) => [entry.source, entry]));
  const append: KnowledgeSelection[] = [];
  const useExisting = new Set(response.use_existing.filter((source) => loaded.has(source)));
  for (const selection of response.append_knowledge) {
    if (append.some((kept) => kept.source === selection.source)) continue;
    const current = loaded.get(selection.source);
    const daysBack = WINDOWED.has(selection.source) ? selection.days_back : null;
    if (current === undefined) {
      append.push({ source: selection.source, reason: 'not_in_context', days_back: daysBack });
      continue;
    }
    const wider = daysBack !== null && (current.days_back === null || daysBack > current.days_back);
    if (state.stale.includes(selection.source) && selection.reason !== 'expand_range') {
      append.push({ source: selection.source, reason: 'refresh_state', days_back: daysBack ?? current.days_back });
    } else if (wider) {
      append.push({ source: selection.source, reason: 'expand_range', days_back: daysBack });
    } else {
      useExisting.add(selection.source);
    }
  }
  return { reasoning: response.reasoning, append_knowledge: append, use_existing: [...useExisting] };
}

/** The fetch parameters of the selection: `days_back` where given, and room for that many days of workouts. */
export function paramsOf(selections: readonly KnowledgeSelection[]): DataSourceParamsMap {
  const params: DataSourceParamsMap = {};
  for (const { source, days_back } of selections) {
    if (days_back === null) continue;
    if (source === 'workout_history')
      params[source] = { days_back, limit: Math.min(500, Math.max(DEFAULT_HISTORY_LIMIT, days_back)) };
    if (source === 'exercise_distribution') params[source] = { days_back };
  }
  return params;
}
