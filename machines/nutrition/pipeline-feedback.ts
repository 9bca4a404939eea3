import { versionedRunId } from '../../actors/nutrition/envelope-factory.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import { merge, release, releaseOutputs, settle, workContextFor, type Step } from './pipeline-dispatch.ts';
import type { PipelineContext } from './pipeline-context.ts';
import { historyOf, reviewReport } from './pipeline-review.ts';

/*
 * The run's entry points from the user: the intake that starts it, and the weekly check-ins of
 * §7 that may re-run part of it (§10).
 */

/** The user's intake goes to INTAKE; the run's clock starts. */
export function startRun(context: PipelineContext, envelope: EnvelopeOf<'intake_data'>): Step {
  return merge({ context: { intake: envelope.payload }, sends: [] }, release(context, [{ envelope }]));
}

/** §7.3 step 1: the check-in goes to SCIENTIST with the history its triggers need. */
export function submitCheckin(context: PipelineContext, envelope: EnvelopeOf<'weekly_checkin'>): Step {
  const work = {
    ...workContextFor(context, 'SCIENTIST'),
    next_run_id: versionedRunId(context.runId, context.version + 1),
  };
  const step = release(context, [{ envelope, context: work }]);
  // The program goes with this check-in; SCIENTIST records it into the history it returns.
  return merge(step, {
    context: { checkin: { envelopeId: envelope.message_id, payload: envelope.payload }, programToRecord: false },
    sends: [],
  });
}

/** The adjustment result among SCIENTIST's accepted outputs, if any. */
function adjustmentOf(context: PipelineContext, report: AgentReport): EnvelopeOf<'adjustment_result'> | undefined {
  const verdict = reviewReport(context, report);
  if (verdict.kind !== 'accepted') return undefined;
  return verdict.envelopes.find((e): e is EnvelopeOf<'adjustment_result'> => e.data_type === 'adjustment_result');
}

/** Whether SCIENTIST's evaluation asks agents to re-run (§7.3 step 4). */
export function triggersRerun(context: PipelineContext, report: AgentReport): boolean {
  return (adjustmentOf(context, report)?.payload.agents_re_run.length ?? 0) > 0;
}

/** The check-in history in SCIENTIST's accepted output, as a context change. */
function acceptedHistory(context: PipelineContext, report: AgentReport) {
  const verdict = reviewReport(context, report);
  return verdict.kind === 'accepted' ? historyOf(verdict.memo) : {};
}

/** §7.3 step 3: no trigger fired; the `no_change` result goes to the user at once. */
export function answerCheckin(context: PipelineContext, report: AgentReport): Step {
  const adjustment = adjustmentOf(context, report)!;
  const settled = settle(context, report.requestId);
  const next = { ...context, ...settled.context };
  return merge(
    settled,
    { context: { ...acceptedHistory(context, report), checkin: null, lastAdjustment: adjustment }, sends: [] },
    release(next, [{ envelope: adjustment }]),
  );
}

/**
 * §7.3 steps 4-5 and §10: a new version of the run starts with the agents of the re-execution
 * map; SCIENTIST's updated outputs go to them now, the result waits for the re-run to finish.
 */
export function startRerun(context: PipelineContext, report: AgentReport): Step {
  const verdict = reviewReport(context, report);
  const adjustment = adjustmentOf(context, report)!;
  const envelopes = verdict.kind === 'accepted' ? verdict.envelopes.filter((e) => e !== adjustment) : [];
  const settled = settle(context, report.requestId);
  const rerun = adjustment.payload.agents_re_run as PipelineStageAgent[];
  const version = context.version + 1;
  const fresh: Partial<PipelineContext> = {
    ...settled.context,
    ...acceptedHistory(context, report),
    version,
    rerun,
    dispatched: [],
    reprocessed: {},
    upstreamReruns: {},
    checkin: { ...context.checkin, envelopeId: context.checkin?.envelopeId ?? report.requestId, result: adjustment },
  };
  return merge({ context: fresh, sends: [] }, releaseOutputs({ ...context, ...fresh }, envelopes));
}

/** §7.3 step 6: the re-run finished; the user gets the delta. */
export function finishRerun(context: PipelineContext): Step {
  const result = context.checkin?.result;
  if (!result) return { context: {}, sends: [] };
  return merge(release(context, [{ envelope: result }]), {
    context: { checkin: null, lastAdjustment: result },
    sends: [],
  });
}

/** The evaluation itself failed (output_ready has no edge to error): the run stays ready, the check-in reports why. */
export function failCheckin(context: PipelineContext, report: AgentReport): Step {
  const verdict = reviewReport(context, report);
  const why =
    verdict.kind === 'failed'
      ? verdict.failure.kind === 'timeout'
        ? `SCIENTIST did not answer within ${verdict.failure.timeout_duration_ms} ms, twice`
        : verdict.failure.kind === 'error'
          ? verdict.failure.message
          : 'invalid output'
      : verdict.kind === 'invalid'
        ? `SCIENTIST's evaluation failed validation: ${verdict.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`
        : `unexpected ${verdict.kind} evaluation`;
  const settled = settle(context, report.requestId);
  return merge(settled, {
    context: { checkin: { envelopeId: context.checkin?.envelopeId ?? report.requestId, failure: why } },
    sends: [],
  });
}
