/**
 * The nutrition pipeline's orchestrator (spec 000 §1): a child of the nutrition supervisor that
 * accepts the user's intake and check-ins, reviews every agent report (§6, §8, §5), releases the
 * accepted envelopes through the supervisor, and moves through exactly the §1 states.
 */
import { and, cancel, enqueueActions, raise, setup, type ActionFunction } from 'xstate';
import { stampedAt } from '../../actors/nutrition/envelope-factory.ts';
import { systemNow } from '../runtime/system-now.ts';
import { physicianSays, report, resumeOnConfirmation, resumeOnContinue, stage } from './pipeline-stages.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import { NutritionWorkerSchema, type PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { PipelineState } from '../../protocol/nutrition/pipeline-transitions.ts';
import {
  initialPipelineContext,
  runsInThisVersion,
  unfinishedWork,
  type PausableState,
  type PipelineContext,
  type PipelineInput,
} from './pipeline-context.ts';
import { release, type Step } from './pipeline-dispatch.ts';
import {
  answerCheckin,
  failCheckin,
  finishRerun,
  startRerun,
  startRun,
  submitCheckin,
  triggersRerun,
} from './pipeline-feedback.ts';
import { reviewReport, type Verdict } from './pipeline-review.ts';
import * as steps from './pipeline-steps.ts';
import type { AgentDeliveryEvent, SupervisorRejectedEvent } from '../runtime/supervisor.ts';

export type PipelineEvent =
  | { type: 'pipeline.start'; envelope: EnvelopeOf<'intake_data'> }
  | { type: 'pipeline.checkin'; envelope: EnvelopeOf<'weekly_checkin'> }
  | { type: 'pipeline.confirm_referral' }
  /** Sent once after a restore: timers and in-flight work do not survive a restart by themselves. */
  | { type: 'pipeline.resume' }
  | { type: 'pipeline.timeout' }
  | { type: 'supervisor.report'; report: AgentReport }
  | SupervisorRejectedEvent
  | AgentDeliveryEvent;

type ReportParams = { agent: string; kind: Verdict['kind'] };

const reportOf = (event: PipelineEvent): AgentReport | undefined =>
  event.type === 'supervisor.report' ? event.report : undefined;

/** An action that applies a pure step to the context and hands its envelopes to the supervisor. */
function stepAction<P = undefined>(decide: (context: PipelineContext, report: AgentReport, params: P) => Step) {
  return enqueueActions(({ context, event, enqueue, system }, params: P) => {
    const report = reportOf(event as PipelineEvent);
    if (!report) return;
    const step = stampedAt(new Date(systemNow(system)), () => decide(context as PipelineContext, report, params));
    enqueue.assign(step.context);
    for (const send of step.sends) enqueue.sendParent(send);
  }) as unknown as ActionFunction<PipelineContext, PipelineEvent, PipelineEvent, P, never, never, never, never, never>;
}

function contextAction<P = undefined>(decide: (context: PipelineContext, event: PipelineEvent, params: P) => Step) {
  return enqueueActions(({ context, event, enqueue, system }, params: P) => {
    const step = stampedAt(new Date(systemNow(system)), () =>
      decide(context as PipelineContext, event as PipelineEvent, params),
    );
    enqueue.assign(step.context);
    for (const send of step.sends) enqueue.sendParent(send);
  }) as unknown as ActionFunction<PipelineContext, PipelineEvent, PipelineEvent, P, never, never, never, never, never>;
}

const machineSetup = setup({
  types: {
    context: {} as PipelineContext,
    input: {} as PipelineInput,
    events: {} as PipelineEvent,
  },
  delays: {
    pipelineTimeout: ({ context }) => context.pipelineTimeoutMs,
  },
  guards: {
    reportIs: ({ context, event }, params: ReportParams) => {
      const report = reportOf(event);
      return (
        report !== undefined && report.agent === params.agent && reviewReport(context, report).kind === params.kind
      );
    },
    canReprocess: ({ context, event }) => (context.reprocessed[reportOf(event)?.agent as PipelineStageAgent] ?? 0) < 1,
    canRerunUpstream: ({ context, event }) => {
      const report = reportOf(event);
      const verdict = report && reviewReport(context, report);
      return verdict?.kind === 'upstream' && (context.upstreamReruns[verdict.request.payload.upstream_agent] ?? 0) < 1;
    },
    stageSkipped: ({ context }, params: { agent: PipelineStageAgent }) => !runsInThisVersion(context, params.agent),
    coachDone: ({ context }) => context.coachDone,
    hasPendingQueries: ({ context }) => context.pendingQueries.length > 0,
    previousStateIs: ({ context }, params: { state: PausableState }) => context.previousState === params.state,
    physicianSays: ({ context, event }, params: { action: 'continue' | 'pause_pending_referral' | 'abort' }) => {
      const report = reportOf(event);
      return report?.agent === 'PHYSICIAN' && steps.physicianAction(context, report) === params.action;
    },
    awaitingReferral: ({ context }) =>
      context.physician?.response?.payload.pipeline_action === 'pause_pending_referral' && !context.physician.confirmed,
    checkinIdle: ({ context }) => context.checkin === null || context.checkin.failure !== undefined,
    checkinTriggersRerun: ({ context, event }) => {
      const report = reportOf(event);
      return report !== undefined && triggersRerun(context, report);
    },
  },
  actions: {
    startRun: contextAction((context, event) =>
      event.type === 'pipeline.start' ? startRun(context, event.envelope) : { context: {}, sends: [] },
    ),
    submitCheckin: contextAction((context, event) =>
      event.type === 'pipeline.checkin' ? submitCheckin(context, event.envelope) : { context: {}, sends: [] },
    ),
    acceptOutputs: stepAction(steps.acceptOutputs),
    reprocessInvalid: stepAction(steps.reprocessInvalid),
    reprocessConflict: stepAction(steps.reprocessConflict),
    failRun: stepAction(steps.failRun),
    requestUpstream: stepAction(steps.requestUpstream),
    pauseForPhysician: stepAction((context, report, params: { state: PausableState }) =>
      steps.pauseForPhysician(context, report, params.state),
    ),
    queueRedFlag: stepAction(steps.queueRedFlag),
    askPendingQueries: contextAction((context, _event, params: { state?: PausableState }) => {
      const step = steps.askPhysician(context, context.pendingQueries);
      if (params?.state) step.context.previousState = params.state;
      return step;
    }),
    /** Work that finishes during a pause waits, and is replayed on resume. */
    deferReport: enqueueActions(({ context, event, enqueue }) => {
      const r = reportOf(event);
      if (r && r.agent !== 'PHYSICIAN' && r.requestId in context.inFlight)
        enqueue.assign({ deferred: [...context.deferred, r] });
    }),
    recordPhysician: stepAction(steps.recordPhysician),
    terminateMedical: contextAction((context) => steps.terminateMedical(context)),
    timeOutRun: contextAction((context, _event, params: { state: PipelineState }) =>
      steps.timeOutRun(context, params.state),
    ),
    dispatchRerun: contextAction((context, _event, params: { agent: PipelineStageAgent }) =>
      steps.dispatchRerun(context, params.agent),
    ),
    answerCheckin: stepAction(answerCheckin),
    startRerun: stepAction(startRerun),
    failCheckin: stepAction(failCheckin),
    finishRerun: contextAction((context) => finishRerun(context)),
    confirmReferral: contextAction((context) => ({
      context: { physician: context.physician && { ...context.physician, confirmed: true } },
      sends: [],
    })),
    /** Replays the reports that waited for the PHYSICIAN, now that the run resumes. */
    replayDeferred: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ deferred: [] });
      for (const report of context.deferred) enqueue.raise({ type: 'supervisor.report', report });
    }),
    /**
     * After a restart, the new agents get the work their predecessors did not finish; work
     * whose report waits for the pause to end (deferred) is done and is not asked for again.
     */
    redispatchInFlight: contextAction((context) => release(context, unfinishedWork(context), true)),
    cancelAllWork: enqueueActions(({ enqueue }) => {
      enqueue.assign({ inFlight: {} });
      for (const agent of NutritionWorkerSchema.options) enqueue.sendParent({ type: 'supervisor.cancel', agent });
    }),
    armPipelineTimeout: enqueueActions(({ enqueue }) => {
      enqueue(cancel('pipelineTimeout'));
      enqueue(raise({ type: 'pipeline.timeout' }, { delay: 'pipelineTimeout', id: 'pipelineTimeout' }));
    }),
    disarmPipelineTimeout: cancel('pipelineTimeout'),
  },
});

export const pipelineMachine = machineSetup.createMachine({
  id: 'pipeline',
  context: ({ input }) => initialPipelineContext(input),
  initial: 'intake_pending',
  on: {
    'pipeline.resume': { actions: 'redispatchInFlight' },
  },
  states: {
    intake_pending: {
      description:
        'Waiting for the intake questionnaire; INTAKE checks it and hands it to SCIENTIST. Its failure or the pipeline timeout ends the run (a decision: §1 lists no such edge).',
      on: {
        'pipeline.start': { actions: ['startRun', 'armPipelineTimeout'] },
        'supervisor.report': [
          { guard: report('INTAKE', 'accepted'), target: 'scientist_processing', actions: 'acceptOutputs' },
          { guard: report('INTAKE', 'failed'), target: 'error', actions: 'failRun' },
          { guard: report('INTAKE', 'invalid'), target: 'error', actions: 'failRun' },
        ],
        'pipeline.timeout': {
          target: 'error',
          actions: { type: 'timeOutRun', params: { state: 'intake_pending' } },
        },
        'pipeline.resume': { actions: ['redispatchInFlight', 'armPipelineTimeout'] },
      },
    },
    scientist_processing: stage(
      'SCIENTIST',
      'scientist_processing',
      'nutritionist_processing',
      'SCIENTIST computes targets; on acceptance macro_targets go to NUTRITIONIST and training_input to COACH at once.',
    ),
    nutritionist_processing: stage(
      'NUTRITIONIST',
      'nutritionist_processing',
      'dietitian_processing',
      'NUTRITIONIST builds the strategy; totals must equal SCIENTIST targets (§8 rank 2).',
      'scientist_processing',
    ),
    dietitian_processing: stage(
      'DIETITIAN',
      'dietitian_processing',
      'chef_processing',
      'DIETITIAN builds the week; weekly totals within 5 % of daily targets x 7 (§8 rank 3).',
      'nutritionist_processing',
    ),
    chef_processing: stage(
      'CHEF',
      'chef_processing',
      'coach_processing',
      'CHEF writes recipes within 10 % of each slot spec (§8 rank 4); red flags wait for coach_processing.',
      'dietitian_processing',
    ),
    coach_processing: {
      ...stage(
        'COACH',
        'coach_processing',
        'coach_processing',
        'Waits only for what COACH has not finished yet; it started beside the nutrition chain.',
      ),
      always: [
        {
          guard: 'hasPendingQueries',
          target: 'paused_physician',
          actions: { type: 'askPendingQueries', params: { state: 'coach_processing' } },
        },
        { guard: 'coachDone', target: 'output_ready' },
      ],
    },
    output_ready: {
      description:
        'Every output is in; weekly check-ins are evaluated here and re-run part of the pipeline when a trigger fires.',
      entry: ['disarmPipelineTimeout', 'finishRerun'],
      on: {
        'pipeline.checkin': { guard: 'checkinIdle', actions: 'submitCheckin' },
        'supervisor.report': [
          {
            guard: and([report('SCIENTIST', 'accepted'), 'checkinTriggersRerun']),
            target: 'scientist_processing',
            actions: ['startRerun', 'armPipelineTimeout'],
          },
          { guard: report('SCIENTIST', 'accepted'), actions: 'answerCheckin' },
          { guard: and([report('SCIENTIST', 'invalid'), 'canReprocess']), actions: 'reprocessInvalid' },
          { guard: report('SCIENTIST', 'invalid'), actions: 'failCheckin' },
          { guard: report('SCIENTIST', 'failed'), actions: 'failCheckin' },
        ],
      },
    },
    paused_physician: {
      description: 'One PHYSICIAN query at a time (red flags batched); its pipeline_action decides what follows (§5).',
      on: {
        'supervisor.report': [
          {
            guard: and([physicianSays('continue'), 'hasPendingQueries']),
            target: 'paused_physician',
            actions: ['recordPhysician', { type: 'askPendingQueries', params: {} }],
          },
          ...resumeOnContinue,
          {
            guard: physicianSays('pause_pending_referral'),
            target: 'paused_physician',
            actions: ['recordPhysician', 'disarmPipelineTimeout'],
          },
          { guard: physicianSays('abort'), target: 'error', actions: ['recordPhysician', 'terminateMedical'] },
          { guard: report('PHYSICIAN', 'failed'), target: 'error', actions: 'failRun' },
          { guard: report('PHYSICIAN', 'invalid'), target: 'error', actions: 'failRun' },
          { actions: 'deferReport' },
        ],
        'pipeline.confirm_referral': resumeOnConfirmation,
        'pipeline.resume': { actions: 'redispatchInFlight' },
      },
    },
    error: {
      description:
        'Unrecoverable: the user got a pipeline_error; all in-flight work was cancelled. A new run is needed.',
      type: 'final',
      entry: ['disarmPipelineTimeout', 'cancelAllWork'],
    },
  },
});

export type PipelineMachine = typeof pipelineMachine;
