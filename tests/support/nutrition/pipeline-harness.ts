import { assign, createActor, setup, SimulatedClock, type AnyActorRef, type InspectionEvent } from 'xstate';
import { makeEnvelope } from '../../../actors/nutrition/envelope-factory.ts';
import type { Dispatch, PipelineContext } from '../../../machines/nutrition/pipeline-context.ts';
import { pipelineMachine, type PipelineEvent } from '../../../machines/nutrition/pipeline.ts';
import type { AgentFailure, AgentReport } from '../../../protocol/runtime/agent-report.ts';
import type { NutritionAgent, PipelineStageAgent } from '../../../protocol/nutrition/agents.ts';
import type { EnvelopeOf } from '../../../protocol/nutrition/envelope.ts';
import { fakeOutput, payload, type FakeVariant } from './nutrition-fakes.ts';

export const RUN = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** Every event the pipeline sent its parent (the supervisor, here a recorder). */
type Sent = { type: string; envelope?: any; context?: any; redeliver?: boolean; agent?: string };

const recorderParent = setup({
  types: {
    context: {} as { sent: Sent[]; input: { runId: string; pipelineTimeoutMs?: number } },
    input: {} as { runId: string; pipelineTimeoutMs?: number },
  },
  actors: { pipeline: pipelineMachine },
  actions: { record: assign({ sent: ({ context, event }) => [...context.sent, event as Sent] }) },
}).createMachine({
  context: ({ input }) => ({ sent: [], input }),
  invoke: { src: 'pipeline', id: 'pipeline', input: ({ context }) => context.input },
  on: { '*': { actions: 'record' } },
});

/**
 * Runs the pipeline machine under a recording parent on a simulated clock, and records every
 * transition it takes (source state -> target state, at microstep level, eventless ones too).
 */
export function startPipeline(options: { pipelineTimeoutMs?: number } = {}) {
  const clock = new SimulatedClock();
  const edges: string[] = [];
  let pipelineRef: AnyActorRef | undefined;
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.microstep' || event.actorRef !== pipelineRef) return;
    for (const t of event._transitions) {
      const target = t.target?.[0];
      if (target) edges.push(`${t.source.path[0]}->${target.path[0]}`);
    }
  };
  const root = createActor(recorderParent, { clock, inspect, input: { runId: RUN, ...options } });
  root.start();
  pipelineRef = root.getSnapshot().children.pipeline as AnyActorRef;
  const pipeline = pipelineRef;
  const snapshot = () => pipeline.getSnapshot();
  const context = (): PipelineContext => snapshot().context;
  let seq = 0;

  const harness = {
    clock,
    edges,
    pipeline,
    send: (event: PipelineEvent) => pipeline.send(event),
    stop: () => root.stop(),
    state: (): string => snapshot().value,
    status: (): string => snapshot().status,
    context,
    sent: (): Sent[] => root.getSnapshot().context.sent,
    released: () =>
      harness
        .sent()
        .filter((e) => e.type === 'supervisor.send')
        .map((e) => e.envelope as EnvelopeOf<any>),
    pending: (agent?: NutritionAgent): Dispatch[] =>
      Object.values(context().inFlight).filter((d) => agent === undefined || d.envelope.to_agent === agent),
    one: (agent: NutritionAgent): Dispatch => {
      const found = harness.pending(agent);
      if (found.length === 0) throw new Error(`No work in flight for ${agent} (state ${harness.state()}).`);
      return found[0]!;
    },
    report: (dispatch: Dispatch, outcome: AgentReport['outcome']) =>
      pipeline.send({
        type: 'supervisor.report',
        report: {
          type: 'agent.report',
          agent: dispatch.envelope.to_agent,
          requestId: dispatch.envelope.message_id,
          attempts: 1,
          outcome,
        },
      }),
    answer: (agent: NutritionAgent, variant: FakeVariant = 'ok', options: Parameters<typeof fakeOutput>[2] = {}) =>
      harness.report(harness.one(agent), {
        status: 'completed',
        output: fakeOutput(harness.one(agent), variant, options),
      }),
    fail: (
      agent: NutritionAgent,
      failure: AgentFailure = { kind: 'timeout', timeout_duration_ms: 30_000, input_hash: 'a'.repeat(64) },
    ) => harness.report(harness.one(agent), { status: 'failed', failure }),
    start: (intake = payload('intake_data')) =>
      pipeline.send({
        type: 'pipeline.start',
        envelope: makeEnvelope({
          from: 'USER',
          to: 'INTAKE',
          dataType: 'intake_data',
          payload: intake,
          runId: RUN,
          idSeed: ['intake', seq++],
        }),
      }),
    checkin: () =>
      pipeline.send({
        type: 'pipeline.checkin',
        envelope: makeEnvelope({
          from: 'USER',
          to: 'SCIENTIST',
          dataType: 'weekly_checkin',
          payload: payload('weekly_checkin'),
          runId: RUN,
          idSeed: ['checkin', seq++],
        }),
      }),
    /** Drives an initial run to output_ready with every agent answering well. */
    runToReady: () => {
      harness.start();
      for (const agent of ['INTAKE', 'SCIENTIST', 'COACH', 'NUTRITIONIST', 'DIETITIAN', 'CHEF'] as const)
        harness.answer(agent);
    },
    rerun: (agents: PipelineStageAgent[]) => {
      harness.checkin();
      harness.answer('SCIENTIST', 'ok', { rerun: agents });
    },
  };
  return harness;
}

export type PipelineHarness = ReturnType<typeof startPipeline>;
