import { makeEnvelope, versionedRunId } from '../../actors/nutrition/envelope-factory.ts';
import type { WorkContext } from '../../actors/nutrition/work-context.ts';
import { NutritionWorkerSchema, type NutritionAgent } from '../../protocol/nutrition/agents.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { PipelineError } from '../../protocol/nutrition/pipeline-error.ts';
import type { SupervisorSendEvent } from '../runtime/supervisor.ts';
import { isStageAgent, type Dispatch, type PipelineContext } from './pipeline-context.ts';

/** The agents that run a brain (everyone but the orchestrator and the user). */
const WORKERS: ReadonlySet<string> = new Set(NutritionWorkerSchema.options);

/** What an orchestrator step decides: context changes, and the envelopes it hands the supervisor. */
export interface Step {
  context: Partial<PipelineContext>;
  sends: SupervisorSendEvent[];
}

/** The run id of the current version (`<run>`, `<run>_v2`, ...). */
export function currentRunId(context: PipelineContext): string {
  return versionedRunId(context.runId, context.version);
}

/** Merges steps left to right (later context changes win; sends keep their order). */
export function merge(...steps: Step[]): Step {
  return { context: Object.assign({}, ...steps.map((s) => s.context)), sends: steps.flatMap((s) => s.sends) };
}

/**
 * What an agent needs beside its upstream payload (§10 rule 2: its previous output on a re-run;
 * §5: the PHYSICIAN's `continue` response attached to the next agent).
 */
export function workContextFor(context: PipelineContext, agent: NutritionAgent): WorkContext {
  const work: WorkContext = {};
  const targets = context.outputs.macro_targets;
  if (context.intake) work.intake = context.intake;
  if (targets?.data_type === 'macro_targets') {
    work.macro_targets = targets.payload;
    work.weeks_on_program = targets.payload.weeks_on_program;
  }
  const previous = {
    NUTRITIONIST: 'nutrition_strategy',
    DIETITIAN: 'weekly_meal_plan',
    CHEF: 'recipes',
    COACH: 'training_program',
  } as const;
  const own = agent in previous ? context.outputs[previous[agent as keyof typeof previous]] : undefined;
  if (own && context.version > 1) work.previous_output = own;
  if ((agent === 'SCIENTIST' || agent === 'NUTRITIONIST') && context.checkinHistory !== null)
    work.checkin_history = context.checkinHistory;
  const program = context.outputs.training_program;
  if (agent === 'SCIENTIST' && context.programToRecord && program?.data_type === 'training_program')
    work.training_program = program.payload;
  const response = context.physician?.response;
  if (
    response &&
    response.payload.pipeline_action !== 'abort' &&
    !context.physician?.attached &&
    agent !== 'PHYSICIAN'
  ) {
    work.physician = response.payload;
  }
  return work;
}

/**
 * Hands envelopes to the supervisor and records what they mean for the run. `resend` marks
 * envelopes that carry data already produced (a redelivery, a re-issued input): they are not
 * new outputs.
 *
 * Every send is idempotent (`redeliver`): the run's message ids are derived from their inputs, so
 * after a restore from a snapshot older than the journal, work redone yields the ids already
 * journaled, and they must reach the new agents rather than be dropped as duplicates.
 */
export function release(context: PipelineContext, dispatches: readonly Dispatch[], resend = false): Step {
  const inFlight = { ...context.inFlight };
  const inputs = { ...context.inputs };
  const outputs = { ...context.outputs };
  const dispatched = [...context.dispatched];
  let coachDone = context.coachDone;
  let physician = context.physician;
  const sends: SupervisorSendEvent[] = [];
  for (const dispatch of dispatches) {
    const { envelope } = dispatch;
    const send: SupervisorSendEvent = { type: 'supervisor.send', envelope, redeliver: true };
    if (dispatch.context && Object.keys(dispatch.context).length > 0) send.context = dispatch.context;
    sends.push(send);
    if (!resend) outputs[envelope.data_type] = envelope;
    // A medical_context only informs its receiver (§5): no work is waited for, nothing to re-issue.
    if (!WORKERS.has(envelope.to_agent) || envelope.data_type === 'medical_context') continue;
    inFlight[envelope.message_id] = dispatch;
    inputs[envelope.to_agent] = dispatch;
    if (isStageAgent(envelope.to_agent) && !dispatched.includes(envelope.to_agent)) dispatched.push(envelope.to_agent);
    if (envelope.to_agent === 'COACH') coachDone = false;
    if (dispatch.context?.physician && physician) physician = { ...physician, attached: true };
  }
  const changes: Partial<PipelineContext> = { inFlight, inputs, outputs, dispatched, coachDone };
  if (physician !== context.physician) changes.physician = physician;
  return { context: changes, sends };
}

/**
 * Releases an agent's outputs, each with the work context its receiver needs; a PHYSICIAN
 * `continue` response goes to the first receiver only (the next agent, §5).
 */
export function releaseOutputs(context: PipelineContext, envelopes: readonly NutritionEnvelope[]): Step {
  let attached = false;
  const dispatches = envelopes.map((envelope) => {
    const work = workContextFor(context, envelope.to_agent);
    if (work.physician && attached) delete work.physician;
    if (work.physician) attached = true;
    return { envelope, context: work };
  });
  return release(context, dispatches);
}

/** Forgets a request once its report came back. */
export function settle(context: PipelineContext, requestId: string): Step {
  const { [requestId]: _settled, ...inFlight } = context.inFlight;
  return { context: { inFlight }, sends: [] };
}

/**
 * Asks an agent to redo its last work: its last input again under a new message id, in the
 * current version, with `extra` context (§6.2 issues, §8 constraint, §7.3 reason).
 */
export function reissue(context: PipelineContext, agent: NutritionAgent, extra: WorkContext): Step {
  const last = context.inputs[agent];
  if (!last) return { context: {}, sends: [] };
  const seq = context.seq + 1;
  const envelope = makeEnvelope({
    from: last.envelope.from_agent,
    to: agent,
    dataType: last.envelope.data_type,
    payload: last.envelope.payload,
    runId: currentRunId(context),
    idSeed: [context.runId, 'reissue', seq],
  }) as NutritionEnvelope;
  const step = release(
    { ...context, seq },
    [{ envelope, context: { ...workContextFor(context, agent), ...extra } }],
    true,
  );
  return merge({ context: { seq }, sends: [] }, step);
}

/** The §6 `pipeline_error` envelope to the user, and the error kept on the run. */
export function reportError(context: PipelineContext, error: Omit<PipelineError, 'pipeline_run_id'>): Step {
  const seq = context.seq + 1;
  const payload: PipelineError = { ...error, pipeline_run_id: currentRunId(context) };
  const envelope = makeEnvelope({
    from: 'ORCHESTRATOR',
    to: 'USER',
    dataType: 'pipeline_error',
    payload,
    runId: currentRunId(context),
    idSeed: [context.runId, 'error', seq],
  }) as NutritionEnvelope;
  return merge({ context: { seq, error: payload }, sends: [] }, release({ ...context, seq }, [{ envelope }]));
}
