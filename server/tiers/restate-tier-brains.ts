import type { FleetSandbox } from '../../actors/tiers/fleet/fleet-sandbox.ts';
import { offlineSpecialists, type FleetSpecialist } from '../../actors/tiers/fleet/offline-specialists.ts';
import type { Specialist, SpecialistResult } from '../../actors/tiers/fleet/specialist-result.ts';
import type { DispatcherBrain } from '../../actors/tiers/planning/dispatcher.ts';
import type { ArchitectBrain } from '../../actors/tiers/planning/plan.ts';
import type { CallsReport } from '../../actors/tiers/sandbox/run-calls.ts';
import type { TestRunReport } from '../../actors/tiers/sandbox/run-tests.ts';
import type { TiersBrains } from '../../actors/tiers/tier-brains-for.ts';
import { BrainCalls } from '../restate/brain-calls.ts';
import type { TiersCall } from './restate-tiers-object.ts';
import { tierCallKey } from './tier-work-scope.ts';

/** How the tiers ask for one call's output (a JSON input; the signal stays with the asker). */
export type TierAsk = (agent: TiersCall, input: unknown) => Promise<unknown>;

/** What a call's input loses on its way to Restate: its abort signal stays in this process. */
function withoutSignal<T extends { signal?: AbortSignal }>(input: T): Omit<T, 'signal'> {
  const { signal: _signal, ...rest } = input;
  return rest;
}

/**
 * The tiers' brains when every planning, solver and sandbox call is asked of `ask` (as JSON):
 * the Architect, the Dispatcher, `claude-solver` (with a model) and each sandbox run; the
 * offline specialists' own logic runs where the brains are, over that sandbox.
 *
 * @example
 * const brains = tierBrainsAsking((agent, input) => calls.ask(agent, input), false);
 */
export function tierBrainsAsking(ask: TierAsk, hasModel: boolean): TiersBrains {
  const architect: ArchitectBrain = { plan: (input) => ask('architect', input) as ReturnType<ArchitectBrain['plan']> };
  const dispatcher: DispatcherBrain = {
    route: (input) => ask('dispatcher', input) as ReturnType<DispatcherBrain['route']>,
  };
  const sandbox: FleetSandbox = {
    runTests: (input) => ask('sandbox.runTests', withoutSignal(input)) as Promise<TestRunReport>,
    runCalls: (input) => ask('sandbox.runCalls', withoutSignal(input)) as Promise<CallsReport>,
  };
  const specialists: Record<string, FleetSpecialist> = { ...offlineSpecialists(sandbox) };
  if (hasModel) {
    const solver: Specialist = (request) => ask('claude-solver', withoutSignal(request)) as Promise<SpecialistResult>;
    specialists['claude-solver'] = { taskTypes: ['execute_code'], run: solver };
  }
  return { architect, dispatcher, specialists };
}

/**
 * The tiers' calls of one task as its `tiers-host` object sees them in one handler. A call is
 * named by the key `tierCallKey` derives from the tier work that makes it (the same work done
 * again makes the same keys): answered before, it answers from the object's state at once;
 * sent and not answered, it waits (a later `answer` invocation rebuilds the task, which asks
 * again); new, it is queued to be sent to `tiers-run` when the handler ends. So each call is
 * made once, whatever the replays and rebuilds of the task.
 *
 * @example
 * const calls = new TierCalls(state.answers, state.sent);
 * const brains = tierBrainsAsking((agent, input) => calls.ask(agent, input), hasModel);
 */
export class TierCalls extends BrainCalls {
  ask(agent: TiersCall, input: unknown): Promise<unknown> {
    return this.call(agent, tierCallKey(agent), input);
  }
}
