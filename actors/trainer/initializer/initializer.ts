import type { ModelBackends } from '../../models/model-backends.ts';
import type { DataSourceName } from '../../../protocol/trainer/data-source.ts';
import type { ErrorData } from '../../../protocol/trainer/event-data.ts';
import type { InitializerResponse } from '../../../protocol/trainer/initializer-response.ts';
import type { SessionEvent } from '../../../protocol/trainer/session-event.ts';
import { fetchMultipleDataSources, type DataSourceRegistry } from '../user-data/data-sources.ts';
import { applyAppendOnlyRules, knowledgeStateOf, paramsOf } from './initializer-knowledge.ts';
import { createOpenAiSelector } from './initializer-openai.ts';
import { createRuleSelector } from './initializer-rules.ts';
import type { KnowledgeSelector, SelectionOutcome } from './initializer-selector.ts';

export type { KnowledgeSelector } from './initializer-selector.ts';

/** One source to append as a `knowledge` event (data) and announce as a `knowledge` SSE event (displayName). */
interface KnowledgeToAppend {
  source: DataSourceName;
  displayName: string;
  data: string;
}

/** What the initializer did (spec 001 §5.2 `InitResult`), for the loop to log and emit. */
interface InitializeContextResult {
  selector: KnowledgeSelector['kind'];
  /** The selection after the append-only rules; undefined when selecting failed. */
  selection: InitializerResponse | undefined;
  reasoning: string;
  /** The sources selected for appending. */
  sources: DataSourceName[];
  /** The sources fetched, in selection order: append each as a knowledge event. */
  knowledge: KnowledgeToAppend[];
  /** What went wrong (selection or single fetches): log each as an `error` event. */
  errors: ErrorData[];
  usage?: SelectionOutcome['usage'];
}

interface InitializeContextOptions {
  selector: KnowledgeSelector;
  dataSources: DataSourceRegistry;
  userId: string;
  userMessage: string;
  /**
   * The session's context events so far (after its checkpoint): the knowledge among them is what
   * is already loaded, since it is what the model sees.
   */
  events: readonly SessionEvent[];
  signal?: AbortSignal;
}

const asError = (error: unknown, context: string): ErrorData => ({
  message: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? (error.stack ?? null) : null,
  context,
});

/**
 * Runs the initializer before a turn (spec 001 §5.2): reads what knowledge the session has,
 * lets the selector choose, applies the append-only rules (§5.4), and fetches the new sources
 * in parallel. It never rejects: a failed selection yields no knowledge and one error, a failed
 * source is left out with its own error, so the main agent always runs (§12.3).
 *
 * @example
 * const init = await initializeContext({ selector, dataSources, userId, userMessage, events });
 * for (const k of init.knowledge) await store.appendEvent(sessionId, 'knowledge', { source: k.source, data: k.data });
 * for (const e of init.errors) await store.appendEvent(sessionId, 'error', e);
 */
export async function initializeContext(options: InitializeContextOptions): Promise<InitializeContextResult> {
  const { selector, dataSources, userId, userMessage, events, signal } = options;
  const base = { selector: selector.kind, sources: [], knowledge: [], errors: [] };
  let outcome: SelectionOutcome;
  let selection: InitializerResponse;
  try {
    const knowledge = knowledgeStateOf(events);
    outcome = await selector.select({ userMessage, knowledge }, signal);
    selection = applyAppendOnlyRules(outcome.response, knowledge);
  } catch (error) {
    return {
      ...base,
      selection: undefined,
      reasoning: 'Selection failed; the agent continues with limited context.',
      errors: [asError(error, 'context_init')],
    };
  }
  const usage = outcome.usage ? { usage: outcome.usage } : {};
  const sources = selection.append_knowledge.map((entry) => entry.source);
  if (sources.length === 0) return { ...base, selection, reasoning: selection.reasoning, ...usage };
  let results;
  try {
    results = await fetchMultipleDataSources(dataSources, sources, userId, paramsOf(selection.append_knowledge));
  } catch (error) {
    return {
      ...base,
      selection,
      reasoning: selection.reasoning,
      sources,
      errors: [asError(error, 'context_init')],
      ...usage,
    };
  }
  const knowledge: KnowledgeToAppend[] = [];
  const errors: ErrorData[] = [];
  for (const result of results) {
    if (result.error === undefined)
      knowledge.push({ source: result.source, displayName: result.displayName, data: result.formatted });
    else
      errors.push({
        message: `Could not load ${result.source}: ${result.error}`,
        stack: null,
        context: `context_init:${result.source}`,
      });
  }
  return { selector: selector.kind, selection, reasoning: selection.reasoning, sources, knowledge, errors, ...usage };
}

/** Each OpenAI call's limits (`createOpenAiSelector`'s defaults: 10 s, 1 retry). */
interface KnowledgeSelectorLimits {
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * The initializer's selector (spec 001 §5), as the model layer chooses it: GPT-4o-mini when
 * `OPENAI_API_KEY` is set, else the deterministic §5.5 rules. It has no Claude variant, so an
 * Anthropic key alone leaves it on the rules.
 *
 * @example
 * const selector = knowledgeSelectorFor(openModelBackends(config));
 */
export function knowledgeSelectorFor(backends: ModelBackends, limits: KnowledgeSelectorLimits = {}): KnowledgeSelector {
  return backends.choose<KnowledgeSelector>({
    offline: () => createRuleSelector(),
    openai: ({ client }) => createOpenAiSelector({ client, ...limits }),
  });
}
