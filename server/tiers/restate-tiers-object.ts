import * as restate from '@restatedev/restate-sdk';
import type { ModelBackends } from '../../actors/models/model-backends.ts';
import type { FleetSandbox } from '../../actors/tiers/fleet/fleet-sandbox.ts';
import { realSandbox } from '../../actors/tiers/fleet/offline-specialists.ts';
import type { Specialist, SpecialistRequest } from '../../actors/tiers/fleet/specialist-result.ts';
import type { DispatcherBrain, DispatcherInput } from '../../actors/tiers/planning/dispatcher.ts';
import type { ArchitectBrain, ArchitectInput } from '../../actors/tiers/planning/plan.ts';
import { planningBrainsFor } from '../../actors/tiers/planning/planning-brains-for.ts';
import type { RunCallsInput } from '../../actors/tiers/sandbox/run-calls.ts';
import type { RunTestsInput } from '../../actors/tiers/sandbox/run-tests.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { TaskRequest } from '../../protocol/tiers/task-request.ts';
import { answerTo, journaledCall, type BrainCall, type RestateBrain } from '../restate/run-object.ts';
import type { BrainAnswer } from '../restate/served-brains.ts';
import {
  readTask,
  stepTiersTask,
  type TaskRead,
  type TiersTaskOptions,
  type TiersTaskState,
} from './tiers-task-step.ts';
import type { TiersServiceImpl } from './tiers-service.ts';

/** The object that makes a tiers task's calls on Restate: one per task, keyed by the task's id. */
export const TIERS_RUN = 'tiers-run';

/** The calls a `tiers-run` object answers, by the `agent` a call names. */
export const TIERS_CALLS = [
  'architect',
  'dispatcher',
  'claude-solver',
  'sandbox.runTests',
  'sandbox.runCalls',
] as const;
export type TiersCall = (typeof TIERS_CALLS)[number];

/** What the service processes run for the tiers: the planning brains, the model solver if any, the sandbox. */
export interface ServedTierBrains {
  architect: ArchitectBrain;
  dispatcher: DispatcherBrain;
  solver: Specialist | null;
  sandbox: FleetSandbox;
}

/**
 * A call's work as a {@link BrainAnswer}: its output, or the error it ended with (an error is an
 * answer too: thrown inside `ctx.run`, Restate would retry it forever).
 */
export async function answerOf(work: () => Promise<unknown>): Promise<BrainAnswer> {
  try {
    return { output: await work() };
  } catch (error) {
    const {
      name = 'Error',
      message = String(error),
      issues,
    } = error as {
      name?: string;
      message?: string;
      issues?: ErrorIssue[];
    };
    return { error: { name, message, ...(issues ? { issues } : {}) } };
  }
}

/**
 * The tiers' brains and sandbox as JSON-in, JSON-out calls (each answering a {@link BrainAnswer}),
 * by the names the API process calls them (`TIERS_CALLS`; `claude-solver` only with a model).
 *
 * @example
 * const calls = servedTierCalls({ ...planningBrainsFor(models), sandbox: realSandbox });
 * await calls['sandbox.runTests']!({ code, functionName: 'search', testCases });
 */
export function servedTierCalls(brains: ServedTierBrains): Partial<Record<TiersCall, RestateBrain>> {
  const calls: Partial<Record<TiersCall, RestateBrain>> = {
    architect: (input) => answerOf(() => brains.architect.plan(input as ArchitectInput)),
    dispatcher: (input) => answerOf(() => brains.dispatcher.route(input as DispatcherInput)),
    'sandbox.runTests': (input) => answerOf(() => brains.sandbox.runTests(input as RunTestsInput)),
    'sandbox.runCalls': (input) => answerOf(() => brains.sandbox.runCalls(input as RunCallsInput)),
  };
  const solver = brains.solver;
  if (solver) calls['claude-solver'] = (input) => answerOf(() => solver(input as SpecialistRequest));
  return calls;
}

/** The object of a tiers task on Restate: its run, tree, Beads and record, keyed by the task's id. */
export const TIERS_HOST = 'tiers-host';

const json = restate.serde.json;

/** When the user's task was created (its record). */
async function createdAt(service: TiersServiceImpl, user: string, taskId: string): Promise<{ created_at: string }> {
  return { created_at: (await service.get(user, taskId))!.created_at };
}

/**
 * The tiers on Restate, as a service process serves them. `tiers-host`, one object per task, is
 * the task itself: its state holds what the embedded service keeps on disk for it (journals,
 * delegation tree, Beads, seen messages, record), and each exclusive handler rebuilds the
 * task's service from it (`stepTiersTask`), does its operation (`submit`, `receive`, `cancel`,
 * `clarify`; `answer` brings a call's answer, `tick` a timer due), lets the task work until it
 * waits for calls or timers, then sends each new call to `tiers-run` (under its key as
 * idempotency key), one delayed `tick` per new due time, and saves the state. `view` (shared)
 * reads the state. `tiers-run`, one object per task too, makes each planning, solver or sandbox
 * call as one `ctx.run` and sends the answer back to `answer`: once it answered, a replay
 * (its worker killed, Restate restarted) reads the answer from Restate's journal.
 *
 * @example
 * serveRestateEndpoint(tiersObjects(openModelBackends(config)), 9080);
 */
export function tiersObjects(models: ModelBackends) {
  const planning = planningBrainsFor(models);
  const calls = servedTierCalls({ ...planning, sandbox: realSandbox });
  const options: TiersTaskOptions = { hasModel: planning.solver !== null };

  const tickAt = (ctx: restate.ObjectContext, deadline: number, delayMs: number) =>
    ctx.genericSend({
      service: TIERS_HOST,
      method: 'tick',
      key: ctx.key,
      parameter: { deadline },
      inputSerde: json,
      delay: delayMs,
    });

  /** One exclusive step of the task: `take` changes its state first (an answer), `act` is the operation. */
  const step = async <T>(
    ctx: restate.ObjectContext,
    act: (service: TiersServiceImpl) => Promise<T>,
    take?: (state: TiersTaskState) => void,
    saved?: TiersTaskState | null,
  ): Promise<T> => {
    const state = saved === undefined ? await ctx.get<TiersTaskState>('task') : saved;
    const done = await stepTiersTask(ctx.key, state, await ctx.date.now(), options, act, take);
    for (const call of done.calls)
      ctx.genericSend({
        service: TIERS_RUN,
        method: 'call',
        key: ctx.key,
        parameter: call,
        inputSerde: json,
        idempotencyKey: call.id,
      });
    for (const tick of done.ticks) tickAt(ctx, tick.deadline, tick.delayMs);
    ctx.set<TiersTaskState>('task', done.state);
    return done.answer;
  };

  const host = restate.object({
    name: TIERS_HOST,
    handlers: {
      // Both answer when the task was created (its record's time: the handler's).
      submit: (ctx: restate.ObjectContext, body: { user: string; request: TaskRequest }) =>
        step(ctx, async (service) => {
          await service.submit(body.user, body.request, ctx.key);
          return createdAt(service, body.user, ctx.key);
        }),
      receive: (ctx: restate.ObjectContext, body: { user: string; envelope: TiersEnvelope }) =>
        step(ctx, async (service) => {
          await service.startExternal(body.user, body.envelope, ctx.key);
          return createdAt(service, body.user, ctx.key);
        }),
      cancel: (ctx: restate.ObjectContext, body: { user: string; reason: string; cascade: boolean }) =>
        step(
          ctx,
          async (service) =>
            (await service.cancel(body.user, ctx.key, { reason: body.reason, cascade: body.cascade })) ?? null,
        ),
      clarify: (ctx: restate.ObjectContext, body: { user: string; answer: string }) =>
        step(ctx, async (service) => (await service.clarify(body.user, ctx.key, body.answer)) ?? null),
      answer: (ctx: restate.ObjectContext, reply: { id: string; answer: BrainAnswer }) =>
        step(
          ctx,
          async () => null,
          (state) => {
            state.answers[reply.id] = reply.answer;
            state.sent = state.sent.filter((id) => id !== reply.id);
          },
        ),
      tick: async (ctx: restate.ObjectContext, due: { deadline: number }) => {
        // A timer disarmed (or the task rebuilt with other due times) since this was sent: nothing to do.
        const saved = await ctx.get<TiersTaskState>('task');
        if (!saved?.deadlines.includes(due.deadline)) return null;
        // Early by this worker's clock (another machine's): nothing is due yet, so ask again for the rest.
        const now = await ctx.date.now();
        if (now < due.deadline) {
          tickAt(ctx, due.deadline, due.deadline - now);
          return null;
        }
        return step(ctx, async () => null, undefined, saved);
      },
      // A read leaves nothing to keep: its invocation is dropped once answered (the API process polls working tasks).
      view: restate.handlers.object.shared(
        { journalRetention: 0 },
        async (ctx: restate.ObjectSharedContext, request: TaskRead) =>
          readTask(ctx.key, await ctx.get<TiersTaskState>('task'), request),
      ),
    },
  });

  const run = restate.object({
    name: TIERS_RUN,
    handlers: {
      call: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext, call: BrainCall) => {
        const work = calls[call.agent as TiersCall];
        const answer: BrainAnswer = work
          ? ((await journaledCall(ctx, call, work)) as BrainAnswer)
          : {
              error: {
                name: 'Error',
                message: `${TIERS_RUN} has no call ${call.agent}: name one of ${Object.keys(calls).join(', ')}.`,
              },
            };
        answerTo(ctx, TIERS_HOST, ctx.key, call.id, answer);
      }),
    },
  });
  return [host, run] as const;
}
