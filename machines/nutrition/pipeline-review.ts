import type { BrainOutput } from '../../actors/nutrition/nutrition-brain.ts';
import type { AgentFailure, AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import type { NutritionAgent } from '../../protocol/nutrition/agents.ts';
import { NutritionEnvelopeSchema, type EnvelopeOf, type NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import { safeParseOnce } from '../../protocol/runtime/parse-once.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import { detectOutputConflicts, type OutputConflict } from './pipeline-conflicts.ts';
import type { PipelineContext } from './pipeline-context.ts';

/** What the orchestrator makes of one agent report (§6, §8, §5). */
export type Verdict =
  /** Not work the run waits for (cancelled, stale, or from an earlier incarnation). */
  | { kind: 'ignored' }
  /** §6.1: the agent timed out twice, or threw twice. */
  | { kind: 'failed'; failure: AgentFailure }
  /** §6.2: the output fails its schema. */
  | { kind: 'invalid'; issues: ErrorIssue[] }
  /** §5: the agent raised a red flag; the rest of its output waits for the PHYSICIAN. */
  | { kind: 'redFlag'; query: EnvelopeOf<'health_query'>; rest: NutritionEnvelope[]; memo?: unknown }
  /** §6.3: the agent lacks upstream data and names the agent to re-run. */
  | { kind: 'upstream'; request: EnvelopeOf<'upstream_data_request'> }
  /** §8: the output contradicts a higher-ranked agent's. */
  | { kind: 'conflict'; conflicts: OutputConflict[] }
  | { kind: 'accepted'; envelopes: NutritionEnvelope[]; memo?: unknown };

function isBrainOutput(output: unknown): output is BrainOutput {
  return typeof output === 'object' && output !== null && Array.isArray((output as BrainOutput).envelopes);
}

/** Validates every envelope of an output; the issues of all of them, prefixed by their index. */
function parseEnvelopes(
  agent: NutritionAgent,
  raw: unknown[],
): { envelopes: NutritionEnvelope[]; issues: ErrorIssue[] } {
  const envelopes: NutritionEnvelope[] = [];
  const issues: ErrorIssue[] = [];
  raw.forEach((candidate, index) => {
    const parsed = safeParseOnce(NutritionEnvelopeSchema, candidate);
    if (!parsed.success) {
      for (const issue of toErrorIssues(parsed.error.issues))
        issues.push({ ...issue, path: `envelopes.${index}.${issue.path}` });
    } else if (parsed.data.from_agent !== agent) {
      issues.push({ path: `envelopes.${index}.from_agent`, message: `must be ${agent}, the agent that produced it` });
    } else {
      envelopes.push(parsed.data);
    }
  });
  return { envelopes, issues };
}

/**
 * Verdicts already reached, by report and context: the pipeline's guards ask about the same
 * report several times in one transition, and parsing a week of meals each time is not free.
 * Both keys are immutable snapshots' objects, so a cached verdict can never be stale.
 */
const verdicts = new WeakMap<AgentReport, WeakMap<PipelineContext, Verdict>>();

/**
 * Reviews one agent report against the run (memoized per report and context): failure, schema (§6.2), red flag (§5), upstream
 * request (§6.3), conflicts with higher-ranked outputs (§8), else accepted. Pure.
 */
export function reviewReport(context: PipelineContext, report: AgentReport): Verdict {
  let byContext = verdicts.get(report);
  if (!byContext) verdicts.set(report, (byContext = new WeakMap()));
  let verdict = byContext.get(context);
  if (!verdict) byContext.set(context, (verdict = review(context, report)));
  return verdict;
}

function review(context: PipelineContext, report: AgentReport): Verdict {
  if (!(report.requestId in context.inFlight) || report.outcome.status === 'cancelled') return { kind: 'ignored' };
  if (report.outcome.status === 'failed') {
    const { failure } = report.outcome;
    return failure.kind === 'validation' ? { kind: 'invalid', issues: failure.issues } : { kind: 'failed', failure };
  }
  // An agent runs one request of a run at a time, so its mailbox never fills; were it full, the step failed.
  if (report.outcome.status === 'throttled') {
    return { kind: 'failed', failure: { kind: 'error', message: `${report.agent} was too busy to take the request.` } };
  }
  const output = report.outcome.output;
  if (!isBrainOutput(output)) {
    return { kind: 'invalid', issues: [{ path: 'envelopes', message: 'The brain must return { envelopes: [...] }' }] };
  }
  const { envelopes, issues } = parseEnvelopes(report.agent as NutritionAgent, output.envelopes);
  if (issues.length > 0) return { kind: 'invalid', issues };
  const query = envelopes.find((e): e is EnvelopeOf<'health_query'> => e.data_type === 'health_query');
  if (query) return { kind: 'redFlag', query, rest: envelopes.filter((e) => e !== query), memo: output.memo };
  const request = envelopes.find(
    (e): e is EnvelopeOf<'upstream_data_request'> => e.data_type === 'upstream_data_request',
  );
  if (request) return { kind: 'upstream', request };
  const conflicts = detectOutputConflicts(context, envelopes);
  if (conflicts.length > 0) return { kind: 'conflict', conflicts };
  return { kind: 'accepted', envelopes, memo: output.memo };
}

/** The check-in history a SCIENTIST memo carries, as a context change (nothing without one). */
export function historyOf(memo: unknown): { checkinHistory?: unknown } {
  const history = (memo as { checkin_history?: unknown } | undefined)?.checkin_history;
  return history === undefined ? {} : { checkinHistory: history };
}
