import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { NutritionAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import {
  currentRunId,
  merge,
  release,
  releaseOutputs,
  reissue,
  reportError,
  settle,
  workContextFor,
  type Step,
} from './pipeline-dispatch.ts';
import type { PausableState, PipelineContext } from './pipeline-context.ts';
import { historyOf, reviewReport, type Verdict } from './pipeline-review.ts';
import { makeEnvelope } from '../../actors/nutrition/envelope-factory.ts';
import { inputHash } from '../../actors/runtime/input-hash.ts';

/*
 * The orchestrator's decisions, one pure function per action of the pipeline machine: each takes
 * the context and the event's report and returns a Step (context changes + envelopes to send).
 */

type VerdictOf<K extends Verdict['kind']> = Extract<Verdict, { kind: K }>;

function verdictOf<K extends Verdict['kind']>(context: PipelineContext, report: AgentReport, kind: K): VerdictOf<K> {
  const verdict = reviewReport(context, report);
  if (verdict.kind !== kind) throw new Error(`Expected a ${kind} verdict, got ${verdict.kind} (a guard is missing).`);
  return verdict as VerdictOf<K>;
}

const agentOf = (report: AgentReport) => report.agent as NutritionAgent;

/** A report like `report` whose output is only `envelopes` (what waits while the PHYSICIAN answers). */
function withEnvelopes(report: AgentReport, envelopes: NutritionEnvelope[], memo?: unknown): AgentReport {
  const output = memo === undefined ? { envelopes } : { envelopes, memo };
  return { ...report, outcome: { status: 'completed', output } };
}

/** Accepted: release the outputs downstream (and to the user), forget the request. */
export function acceptOutputs(context: PipelineContext, report: AgentReport): Step {
  const { envelopes, memo } = verdictOf(context, report, 'accepted');
  const settled = merge(settle(context, report.requestId), { context: historyOf(memo), sends: [] });
  const next = { ...context, ...settled.context };
  const step = merge(settled, releaseOutputs(next, envelopes));
  if (agentOf(report) === 'COACH') Object.assign(step.context, { coachDone: true, programToRecord: true });
  return step;
}

/** §6.2: the agent redoes its work with the issues of its output attached. */
export function reprocessInvalid(context: PipelineContext, report: AgentReport): Step {
  const { issues } = verdictOf(context, report, 'invalid');
  return redo(context, report, { validation_issues: issues });
}

/** §8 resolution step 3: the lower-ranked agent redoes its work with the authoritative data as a constraint. */
export function reprocessConflict(context: PipelineContext, report: AgentReport): Step {
  const { conflicts } = verdictOf(context, report, 'conflict');
  const first = conflicts[0]!;
  return redo(context, report, {
    constraint: {
      rank: first.rank,
      authority: first.higher_agent,
      details: conflicts.map((c) => c.message),
      data: first.authoritative,
    },
  });
}

function redo(context: PipelineContext, report: AgentReport, extra: Parameters<typeof reissue>[2]): Step {
  const agent = agentOf(report);
  const settled = settle(context, report.requestId);
  const reprocessed = { ...context.reprocessed, [agent]: (context.reprocessed[agent] ?? 0) + 1 };
  const next = { ...context, ...settled.context, reprocessed };
  return merge(settled, { context: { reprocessed }, sends: [] }, reissue(next, agent, extra));
}

/** §6.1 / §6.2 / §8: the agent could not do its work; the run ends in `error`. */
export function failRun(context: PipelineContext, report: AgentReport): Step {
  const verdict = reviewReport(context, report);
  const agent = agentOf(report);
  const base = { failing_agent: agent, recoverable: false, retry_count: 1 } as const;
  if (verdict.kind === 'failed' && verdict.failure.kind === 'timeout') {
    const { timeout_duration_ms, input_hash } = verdict.failure;
    return reportError(context, {
      ...base,
      error_type: 'timeout',
      details: `${agent} did not answer within ${timeout_duration_ms} ms, twice (identical input ${input_hash.slice(0, 12)}…).`,
      timeout_duration_ms,
      input_hash,
    });
  }
  if (verdict.kind === 'failed' && verdict.failure.kind === 'error') {
    return reportError(context, {
      ...base,
      error_type: 'validation_failure',
      details: `${agent} failed twice: ${verdict.failure.message}`,
      recoverable: true,
    });
  }
  if (verdict.kind === 'conflict') {
    return reportError(context, {
      ...base,
      error_type: 'validation_failure',
      details: `Conflict escalated to the user: ${agent} could not comply after a re-run. ${verdict.conflicts.map((c) => `${c.higher_agent} (rank ${c.rank}) says: ${c.message}`).join(' ')}`,
    });
  }
  if (verdict.kind === 'upstream') {
    const { payload } = verdict.request;
    return reportError(context, {
      ...base,
      failing_agent: payload.upstream_agent,
      error_type: 'upstream_missing',
      details: `${payload.upstream_agent} could not provide ${payload.missing_fields.join(', ')} after a re-run: ${payload.details}`,
    });
  }
  const issues = verdict.kind === 'invalid' ? verdict.issues : [];
  return reportError(context, {
    ...base,
    error_type: 'validation_failure',
    details: `${agent}'s output failed validation twice: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  });
}

/** §6.3: the upstream agent is asked for the missing data; its state runs again. */
export function requestUpstream(context: PipelineContext, report: AgentReport): Step {
  const { request } = verdictOf(context, report, 'upstream');
  const upstream = request.payload.upstream_agent;
  const settled = settle(context, report.requestId);
  const upstreamReruns = { ...context.upstreamReruns, [upstream]: (context.upstreamReruns[upstream] ?? 0) + 1 };
  const next = { ...context, ...settled.context, upstreamReruns };
  const work = { ...workContextFor(next, upstream), reason: request.payload.details };
  const previousInput = context.inputs[upstream]?.envelope;
  if (previousInput) Object.assign(work, { rerun_of: previousInput });
  return merge(
    settled,
    { context: { upstreamReruns }, sends: [] },
    release(next, [{ envelope: request, context: work }]),
  );
}

/** §5: a red flag pauses the run; the PHYSICIAN gets the (batched) query, the rest waits. */
export function pauseForPhysician(context: PipelineContext, report: AgentReport, state: PausableState): Step {
  const { query, rest, memo } = verdictOf(context, report, 'redFlag');
  const deferred = [...context.deferred, withEnvelopes(report, rest, memo)];
  return merge(
    { context: { deferred, previousState: state }, sends: [] },
    askPhysician({ ...context, deferred }, [query, ...context.pendingQueries]),
  );
}

/** A red flag where the run cannot pause yet (§1: CHEF has no pause edge): it waits for the next pausable state. */
export function queueRedFlag(context: PipelineContext, report: AgentReport): Step {
  const { query, rest, memo } = verdictOf(context, report, 'redFlag');
  return {
    context: {
      deferred: [...context.deferred, withEnvelopes(report, rest, memo)],
      pendingQueries: [...context.pendingQueries, query],
    },
    sends: [],
  };
}

/** Sends the PHYSICIAN one query: several red flags of the run are batched into one (§5). */
export function askPhysician(context: PipelineContext, queries: readonly EnvelopeOf<'health_query'>[]): Step {
  const [first, ...others] = queries;
  if (!first) return { context: {}, sends: [] };
  let query = first;
  if (others.length > 0) {
    const seq = context.seq + 1;
    query = makeEnvelope({
      from: first.from_agent,
      to: 'PHYSICIAN',
      dataType: 'health_query',
      payload: { ...first.payload, query: queries.map((q) => q.payload.query).join('\n\n') },
      runId: currentRunId(context),
      idSeed: [context.runId, 'batched-query', seq],
    }) as EnvelopeOf<'health_query'>;
    context = { ...context, seq };
  }
  return merge(release(context, [{ envelope: query }]), {
    context: { seq: context.seq, physician: { query }, pendingQueries: [] },
    sends: [],
  });
}

/** The PHYSICIAN answered: keep the response as metadata and pass it to the requesting agent. */
export function recordPhysician(context: PipelineContext, report: AgentReport): Step {
  const { envelopes } = verdictOf(context, report, 'accepted');
  const response = envelopes.find((e): e is EnvelopeOf<'medical_context'> => e.data_type === 'medical_context');
  const settled = settle(context, report.requestId);
  const physician = context.physician && response ? { ...context.physician, response } : context.physician;
  return merge(
    settled,
    { context: { physician }, sends: [] },
    release(
      { ...context, ...settled.context },
      envelopes.map((envelope) => ({ envelope })),
    ),
  );
}

/** The PHYSICIAN's answer to the current query, if any. */
export function physicianAction(context: PipelineContext, report: AgentReport) {
  const verdict = reviewReport(context, report);
  if (verdict.kind !== 'accepted') return undefined;
  const response = verdict.envelopes.find((e): e is EnvelopeOf<'medical_context'> => e.data_type === 'medical_context');
  return response?.payload.pipeline_action;
}

/** §6.4: abort. The user gets the PHYSICIAN's response and referral; the run is terminated_medical. */
export function terminateMedical(context: PipelineContext): Step {
  const response = context.physician?.response?.payload;
  const referral = response?.referral_target ? ` Referral: ${response.referral_target} (${response.urgency}).` : '';
  const step = reportError(context, {
    error_type: 'physician_abort',
    failing_agent: 'PHYSICIAN',
    details: `${response?.response ?? 'The PHYSICIAN stopped the pipeline.'}${referral} Please seek medical care; a new run needs your medical clearance.`,
    recoverable: false,
    retry_count: 0,
  });
  step.context.terminatedMedical = true;
  return step;
}

/** The whole run's time is up (§9: 180 s). */
export function timeOutRun(context: PipelineContext, state: string): Step {
  const waiting = Object.values(context.inFlight).map((d) => d.envelope.to_agent);
  return reportError(context, {
    error_type: 'timeout',
    failing_agent: (waiting[0] as NutritionAgent | undefined) ?? 'ORCHESTRATOR',
    details: `The pipeline did not finish within ${context.pipelineTimeoutMs} ms (in ${state}, waiting for ${waiting.join(', ') || 'nothing'}).`,
    recoverable: true,
    retry_count: 0,
    timeout_duration_ms: context.pipelineTimeoutMs,
    input_hash: inputHash(context.intake),
  });
}

/** A stage agent in the re-run set that got no fresh input this version redoes its last work (§10). */
export function dispatchRerun(context: PipelineContext, agent: PipelineStageAgent): Step {
  if (context.rerun === null || !context.rerun.includes(agent) || context.dispatched.includes(agent))
    return { context: {}, sends: [] };
  const result = context.checkin?.result?.payload;
  const checkin = context.checkin?.payload;
  if (!result) return reissue(context, agent, {});
  return reissue(context, agent, {
    reason: result.notes.join(' '),
    adjustment: { triggers_fired: result.triggers_fired, ...(checkin ? { checkin } : {}) },
  });
}
