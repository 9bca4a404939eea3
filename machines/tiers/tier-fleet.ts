import { packArtifacts } from '../../actors/tiers/outcome-artifacts.ts';
import { outcomePayload } from '../../actors/tiers/tier-envelopes.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { DelegationPayload } from '../../protocol/tiers/payloads.ts';
import type { SpecialistRequestShape, SpecialistResultShape, TaskContext, TierInput } from './task-context.ts';
import { endedBeforeStart, payloadOf, refuseRefs, replyTo, unreadableRefs } from './tier-steps.ts';

/** The Beads key a ref names (`beads:execution/outputs/x` -> `execution/outputs/x`). */
const keyOfRef = (ref: string) => (ref.startsWith('beads:') ? ref.slice('beads:'.length) : ref);

/** What a fleet specialist writes to `execution/outputs/{id}`: its verdict, packed artifacts, and the code it wrote. */
export interface ExecutionOutput {
  status: string;
  summary: string;
  confidence: number;
  code: string | null;
  specialist: string;
}

/** The problem of the task, as the Architect wrote it to `task/problem-statement` and `task/test-cases`. */
async function problemOf(ctx: TaskContext): Promise<SpecialistRequestShape['problem'] | undefined> {
  const [statement, tests] = await Promise.all([
    ctx.beads.get('task/problem-statement'),
    ctx.beads.get('task/test-cases'),
  ]);
  if (!statement || !tests) return undefined;
  const { problem_id, ...rest } = statement.value as SpecialistRequestShape['problem'];
  return {
    ...(problem_id ? { problem_id } : {}),
    ...rest,
    test_cases: tests.value as SpecialistRequestShape['problem']['test_cases'],
  };
}

/** The request the specialist gets: the task's problem, the subtask, and for verifiers the code under test. */
async function requestOf(
  ctx: TaskContext,
  payload: DelegationPayload,
  signal: AbortSignal,
): Promise<SpecialistRequestShape | string> {
  const problem = await problemOf(ctx);
  if (!problem)
    return 'task/problem-statement or task/test-cases is missing: the Architect writes them before delegating';
  const data = payload.task_data;
  const request: SpecialistRequestShape = {
    problem: typeof data['language'] === 'string' ? { ...problem, language: data['language'] } : problem,
    task_type: payload.task_type,
    objective: payload.objective,
    constraints: payload.constraints,
    signal,
  };
  if (typeof data['variant'] === 'number') request.variant = data['variant'];
  if (typeof data['claimed_complexity'] === 'string') request.claimed_complexity = data['claimed_complexity'];
  if (typeof data['code_ref'] === 'string') {
    const output = await ctx.beads.get(keyOfRef(data['code_ref']));
    const code = (output?.value as ExecutionOutput | undefined)?.code;
    if (!code) return `${data['code_ref']} holds no code to check`;
    request.code = code;
  }
  return request;
}

/** A specialist's result as spec 002's outcome, its artifacts inline under 1 KB, else in Beads. */
async function reportResult(
  ctx: TaskContext,
  delegation: TiersEnvelope,
  specialist: string,
  result: SpecialistResultShape,
  startedAt: number,
) {
  const id = delegation.id;
  const { artifacts, stored } = packArtifacts(
    result.artifacts,
    (index, a) => `execution/outputs/${id}/${index}-${a.artifact_type}`,
  );
  const code = result.artifacts.find((a) => a.artifact_type === 'code')?.content ?? null;
  const output: ExecutionOutput = {
    status: result.status,
    summary: result.summary,
    confidence: result.confidence,
    code,
    specialist,
  };
  await ctx.beads.write('FLEET', [
    { key: `execution/outputs/${id}`, value: output },
    { key: `execution/logs/${id}`, value: result.log },
    ...stored,
  ]);
  const error =
    result.status === 'success'
      ? {}
      : {
          error_type: result.error_type ?? (result.status === 'partial' ? 'partial_completion' : 'specialist_failed'),
          error_detail: result.error_detail ?? result.summary,
          recoverable: result.recoverable ?? result.status !== 'failed',
        };
  return replyTo(
    ctx,
    delegation,
    outcomePayload({
      status: result.status,
      summary: result.summary,
      result_refs: [`beads:execution/outputs/${id}`, `beads:execution/logs/${id}`],
      confidence: Math.min(1, Math.max(0, result.confidence)),
      execution_time_ms: Math.max(0, Math.round(ctx.clock.now() - startedAt)),
      resources_used: {
        lora: specialist,
        specialists_used: [specialist],
        attempts: 1,
        tokens_in: result.tokens?.input ?? 0,
        tokens_out: result.tokens?.output ?? 0,
      },
      artifacts,
      ...error,
    }),
  );
}

/**
 * One fleet specialist at work on a delegation (spec 002's SPECIALIZED_FLEET): it reads the
 * task's problem from Beads, runs, writes `execution/outputs/{id}` and `execution/logs/{id}`,
 * and reports its outcome. A specialist that throws reports `failed` (recoverable: a retry may
 * do better); an aborted one answers nothing (its cancellation answers for it), nor does one whose
 * delegation ended before it started.
 */
export async function runSpecialist(specialist: string, input: TierInput, ctx: TaskContext): Promise<TiersEnvelope[]> {
  const delegation = input.envelope;
  if (endedBeforeStart(ctx, delegation)) return [];
  const payload = payloadOf<DelegationPayload>(delegation);
  const refused = unreadableRefs('SPECIALIZED_FLEET', payload);
  if (refused.length > 0) return [refuseRefs(ctx, delegation, refused)];
  const startedAt = ctx.clock.now();
  const known = ctx.brains.specialists[specialist];
  if (!known) {
    return [
      replyTo(
        ctx,
        delegation,
        outcomePayload({
          status: 'failed',
          summary: `No specialist ${specialist} in the fleet.`,
          error_type: 'unavailable_specialist',
          error_detail: `The fleet has ${Object.keys(ctx.brains.specialists).join(', ')}; route the subtask to one of them.`,
          recoverable: true,
        }),
      ),
    ];
  }
  const request = await requestOf(ctx, payload, input.signal);
  if (typeof request === 'string') {
    return [
      replyTo(
        ctx,
        delegation,
        outcomePayload({
          status: 'failed',
          summary: request,
          error_type: 'missing_context',
          error_detail: request,
          recoverable: false,
        }),
      ),
    ];
  }
  let result: SpecialistResultShape;
  try {
    result = await known.run(request);
  } catch (error) {
    if (input.signal.aborted) return [];
    const detail = error instanceof Error ? error.message : String(error);
    result = {
      status: 'failed',
      summary: `${specialist} failed: ${detail}`,
      confidence: 0,
      artifacts: [],
      log: [detail],
      error_type: 'specialist_error',
      error_detail: detail,
      recoverable: true,
    };
  }
  if (input.signal.aborted) return [];
  return [await reportResult(ctx, delegation, specialist, result, startedAt)];
}
