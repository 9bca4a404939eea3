import type { WorkContext } from '../../actors/nutrition/work-context.ts';
import type { AgentReport } from '../../protocol/runtime/agent-report.ts';
import type { NutritionAgent, PipelineStageAgent } from '../../protocol/nutrition/agents.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';
import type { NutritionDataType } from '../../protocol/nutrition/nutrition-data-type.ts';
import type { PipelineError } from '../../protocol/nutrition/pipeline-error.ts';
import type { PAUSABLE_STATES } from '../../protocol/nutrition/pipeline-transitions.ts';

/** A state the PHYSICIAN can pause and `continue` returns to (§1 `{previous_state}`). */
export type PausableState = (typeof PAUSABLE_STATES)[number];

/** An envelope released to a worker and the context beside it, until its report comes back. */
export interface Dispatch {
  envelope: NutritionEnvelope;
  context?: WorkContext;
}

/** The PHYSICIAN exchange of the run (§5): kept as metadata, never merged into payloads. */
export interface PhysicianRecord {
  query: EnvelopeOf<'health_query'>;
  response?: EnvelopeOf<'medical_context'>;
  /** The user confirmed the referral (§5 pause_pending_referral). */
  confirmed?: boolean;
  /** The `continue` response was attached to the next agent's work already. */
  attached?: boolean;
}

export interface PipelineInput {
  name?: string;
  /** The base run id (UUID v4). */
  runId: string;
  /** Total pipeline timeout (§9), default 180 s. */
  pipelineTimeoutMs?: number;
}

/** Everything the orchestrator remembers of one run; plain data, so a snapshot persists whole. */
export interface PipelineContext {
  runId: string;
  /** 1 for the initial run, 2 for `_v2`, ... (§10 rule 3). */
  version: number;
  pipelineTimeoutMs: number;
  /** Counter behind the ids of the envelopes the orchestrator itself makes. */
  seq: number;
  intake: IntakeData | null;
  /** Every released envelope still waiting for the report of the agent it went to, by message id. */
  inFlight: Record<string, Dispatch>;
  /** The last envelope released to each agent (what a re-run re-issues). */
  inputs: Partial<Record<NutritionAgent, Dispatch>>;
  /** The latest released envelope of each data_type. */
  outputs: Partial<Record<NutritionDataType, NutritionEnvelope>>;
  /** Agents re-run in the current feedback loop; null during the initial run (everyone runs). */
  rerun: PipelineStageAgent[] | null;
  /** Stage agents given work in the current version. */
  dispatched: PipelineStageAgent[];
  /** Re-processing requests used per agent in the current version (§6.2, §8: one each). */
  reprocessed: Partial<Record<NutritionAgent, number>>;
  /** Upstream re-runs asked per agent in the current version (§6.3: one each). */
  upstreamReruns: Partial<Record<NutritionAgent, number>>;
  coachDone: boolean;
  /** COACH produced a program the SCIENTIST has not recorded yet (its phase plan times transitions). */
  programToRecord: boolean;
  previousState: PausableState | null;
  physician: PhysicianRecord | null;
  /** Reports that arrived while paused, replayed on resume. */
  deferred: AgentReport[];
  /** Red flags waiting for the PHYSICIAN (one invocation at a time, batched, §5). */
  pendingQueries: EnvelopeOf<'health_query'>[];
  checkinHistory: unknown;
  /** The check-in being evaluated, and its result waiting for the re-run to finish. */
  checkin: {
    envelopeId: string;
    payload?: WeeklyCheckin;
    result?: EnvelopeOf<'adjustment_result'>;
    failure?: string;
  } | null;
  lastAdjustment: EnvelopeOf<'adjustment_result'> | null;
  error: PipelineError | null;
  terminatedMedical: boolean;
}

const DEFAULT_PIPELINE_TIMEOUT_MS = 180_000;

export function initialPipelineContext(input: PipelineInput): PipelineContext {
  return {
    runId: input.runId,
    version: 1,
    pipelineTimeoutMs: input.pipelineTimeoutMs ?? DEFAULT_PIPELINE_TIMEOUT_MS,
    seq: 0,
    intake: null,
    inFlight: {},
    inputs: {},
    outputs: {},
    rerun: null,
    dispatched: [],
    reprocessed: {},
    upstreamReruns: {},
    coachDone: false,
    programToRecord: false,
    previousState: null,
    physician: null,
    deferred: [],
    pendingQueries: [],
    checkinHistory: null,
    checkin: null,
    lastAdjustment: null,
    error: null,
    terminatedMedical: false,
  };
}

/** The agents whose work is a pipeline stage, in pipeline order. */
const STAGE_AGENTS: readonly PipelineStageAgent[] = ['SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'];

export function isStageAgent(agent: string): agent is PipelineStageAgent {
  return (STAGE_AGENTS as readonly string[]).includes(agent);
}

/** Whether an agent does work in the current version: everyone initially, the re-run set later. */
export function runsInThisVersion(context: PipelineContext, agent: PipelineStageAgent): boolean {
  return context.rerun === null || context.rerun.includes(agent);
}

/**
 * The work in flight whose report has not come back: what agents still do. Work whose report
 * waits, deferred, for a pause to end is done (a restore does not ask for it again, and a run
 * with nothing else in flight may rest).
 */
export function unfinishedWork(context: Pick<PipelineContext, 'inFlight' | 'deferred'>): Dispatch[] {
  const reported = new Set(context.deferred.map((report) => report.requestId));
  return Object.values(context.inFlight).filter((dispatch) => !reported.has(dispatch.envelope.message_id));
}
