import { and } from 'xstate';
import type { PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import type { PipelineState } from '../../protocol/nutrition/pipeline-transitions.ts';
import type { PausableState } from './pipeline-context.ts';
import type { Verdict } from './pipeline-review.ts';

/*
 * Transition configs the pipeline machine repeats per state: how a stage state answers its
 * agent's reports, COACH beside the chain, and the returns from a PHYSICIAN pause. Plain config:
 * names and { type, params } only; the guard and action bodies live in the machine's setup.
 */

export const report = (agent: string, kind: Verdict['kind']) => ({
  type: 'reportIs' as const,
  params: { agent, kind },
});

/** How a stage state answers its own agent's report. */
function ownReport(
  agent: PipelineStageAgent,
  state: PausableState | 'chef_processing',
  next: PipelineState,
  upstreamState?: PipelineState,
) {
  const pauseOrQueue =
    state === 'chef_processing'
      ? { guard: report(agent, 'redFlag'), actions: 'queueRedFlag' as const }
      : {
          guard: report(agent, 'redFlag'),
          target: 'paused_physician',
          actions: { type: 'pauseForPhysician' as const, params: { state } },
        };
  return [
    { guard: report(agent, 'failed'), target: 'error', actions: 'failRun' as const },
    { guard: and([report(agent, 'invalid'), 'canReprocess']), actions: 'reprocessInvalid' as const },
    { guard: report(agent, 'invalid'), target: 'error', actions: 'failRun' as const },
    pauseOrQueue,
    ...(upstreamState
      ? [
          {
            guard: and([report(agent, 'upstream'), 'canRerunUpstream']),
            target: upstreamState,
            actions: 'requestUpstream' as const,
          },
          { guard: report(agent, 'upstream'), target: 'error', actions: 'failRun' as const },
        ]
      : []),
    { guard: and([report(agent, 'conflict'), 'canReprocess']), actions: 'reprocessConflict' as const },
    { guard: report(agent, 'conflict'), target: 'error', actions: 'failRun' as const },
    next === state
      ? { guard: report(agent, 'accepted'), actions: 'acceptOutputs' as const }
      : { guard: report(agent, 'accepted'), target: next, actions: 'acceptOutputs' as const },
  ];
}

/** COACH works beside the nutrition chain (§1 note): its reports are heard in every stage state. */
function coachReport(state: PausableState | 'chef_processing') {
  return ownReport('COACH', state, state).map((t) =>
    'target' in t && t.target === state ? { guard: t.guard, actions: t.actions } : t,
  );
}

/** A stage state: its agent's work, COACH beside it, the pipeline timeout, and resumption after a restart. */
export function stage(
  agent: PipelineStageAgent,
  state: PausableState | 'chef_processing',
  next: PipelineState,
  description: string,
  upstreamState?: PipelineState,
) {
  return {
    description,
    entry: [{ type: 'dispatchRerun' as const, params: { agent } }],
    always: [{ guard: { type: 'stageSkipped' as const, params: { agent } }, target: next }],
    on: {
      'supervisor.report': [
        ...ownReport(agent, state, next, upstreamState),
        ...(agent === 'COACH' ? [] : coachReport(state)),
      ],
      'pipeline.timeout': { target: 'error', actions: { type: 'timeOutRun' as const, params: { state } } },
      'pipeline.resume': { actions: ['redispatchInFlight', 'armPipelineTimeout'] as const },
    },
  };
}

const RESUMABLE: readonly PausableState[] = [
  'scientist_processing',
  'nutritionist_processing',
  'dietitian_processing',
  'coach_processing',
];
export const physicianSays = (action: 'continue' | 'pause_pending_referral' | 'abort') => ({
  type: 'physicianSays' as const,
  params: { action },
});
const previousStateIs = (state: PausableState) => ({ type: 'previousStateIs' as const, params: { state } });

/** §5 `continue`: back to the state that triggered the pause; the work that waited is replayed. */
export const resumeOnContinue = RESUMABLE.map((state) => ({
  guard: and([physicianSays('continue'), previousStateIs(state)]),
  target: state,
  actions: ['recordPhysician', 'replayDeferred'] as const,
}));

/** §5 `pause_pending_referral`: the user confirmed they saw the referral; back to the state that paused. */
export const resumeOnConfirmation = RESUMABLE.map((state) => ({
  guard: and(['awaitingReferral', previousStateIs(state)]),
  target: state,
  actions: ['confirmReferral', 'armPipelineTimeout', 'replayDeferred'] as const,
}));
