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
import { journaledCall, type BrainCall, type RestateBrain } from '../restate/run-object.ts';
import type { BrainAnswer } from '../restate/served-brains.ts';

/** The object of the tiers on Restate: one per task, keyed by its journal partition. */
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

/**
 * The tiers on Restate, as a service process serves them: the `tiers-run` object, one per task,
 * whose shared `call` handler makes one planning, solver or sandbox call as one `ctx.run`. Once a
 * call answered, a replay (its worker killed, Restate restarted) reads the answer from Restate's
 * journal; sent at the ingress under its idempotency key, the same call made again gets the first
 * answer. Shared, not exclusive: a task's specialists and racing attempts call at once.
 *
 * @example
 * serveRestateEndpoint([tiersRunObject(openModelBackends(config))], 9080);
 */
export function tiersRunObject(models: ModelBackends) {
  const planning = planningBrainsFor(models);
  const calls = servedTierCalls({ ...planning, sandbox: realSandbox });
  return restate.object({
    name: TIERS_RUN,
    handlers: {
      call: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext, call: BrainCall) => {
        const work = calls[call.agent as TiersCall];
        if (!work)
          throw new restate.TerminalError(
            `${TIERS_RUN} has no call ${call.agent}: name one of ${Object.keys(calls).join(', ')}.`,
          );
        return journaledCall(ctx, call, work);
      }),
    },
  });
}
