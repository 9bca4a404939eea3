import type { ModelBackends } from '../../actors/models/model-backends.ts';
import type { FleetSandbox } from '../../actors/tiers/fleet/fleet-sandbox.ts';
import { offlineSpecialists, type FleetSpecialist } from '../../actors/tiers/fleet/offline-specialists.ts';
import type { Specialist, SpecialistResult } from '../../actors/tiers/fleet/specialist-result.ts';
import type { DispatcherBrain } from '../../actors/tiers/planning/dispatcher.ts';
import type { ArchitectBrain } from '../../actors/tiers/planning/plan.ts';
import type { CallsReport } from '../../actors/tiers/sandbox/run-calls.ts';
import type { TestRunReport } from '../../actors/tiers/sandbox/run-tests.ts';
import type { TiersBrains } from '../../actors/tiers/tier-brains-for.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { BrainCall } from '../restate/run-object.ts';
import type { BrainAnswer } from '../restate/served-brains.ts';
import { TIERS_RUN, type TiersCall } from './restate-tiers-object.ts';
import { tierCallKey } from './tier-work-scope.ts';

/** What a call's input loses on its way to Restate: its abort signal stays in this process. */
function withoutSignal<T extends { signal?: AbortSignal }>(input: T): Omit<T, 'signal'> {
  const { signal: _signal, ...rest } = input;
  return rest;
}

/**
 * The tiers' brains in the API process of `npm run start:cluster`: the Architect, the Dispatcher,
 * `claude-solver` (with a model) and every sandbox run are calls to the task's `tiers-run` object
 * at the Restate ingress, each under the idempotency key `tierCallKey` derives from the message a
 * tier works on; the offline specialists' own logic runs here over that remote sandbox. The
 * delegation tree, Beads and dedup stay in this process's journals.
 *
 * @example
 * const brains = restateTierBrains('http://127.0.0.1:8080', services.models);
 */
export function restateTierBrains(ingressUrl: string, models: ModelBackends): TiersBrains {
  const ask = (agent: TiersCall, input: unknown, signal?: AbortSignal) => askTiersRun(ingressUrl, agent, input, signal);
  const architect: ArchitectBrain = {
    plan: (input, signal) => ask('architect', input, signal) as ReturnType<ArchitectBrain['plan']>,
  };
  const dispatcher: DispatcherBrain = {
    route: (input, signal) => ask('dispatcher', input, signal) as ReturnType<DispatcherBrain['route']>,
  };
  const specialists: Record<string, FleetSpecialist> = { ...offlineSpecialists(restateSandbox(ingressUrl)) };
  const hasModel = models.choose({ offline: () => false, anthropic: () => true });
  if (hasModel) {
    const solver: Specialist = (request) =>
      ask('claude-solver', withoutSignal(request), request.signal) as Promise<SpecialistResult>;
    specialists['claude-solver'] = { taskTypes: ['execute_code'], run: solver };
  }
  return { architect, dispatcher, specialists };
}

/**
 * The sandbox on Restate: each `runTests` and `runCalls` of the current tier work is one call to
 * its task's `tiers-run` object (its input without the abort signal, which stays here).
 *
 * @example
 * const fleet = offlineSpecialists(restateSandbox(ingressUrl));
 */
export function restateSandbox(ingressUrl: string): FleetSandbox {
  return {
    runTests: (input) =>
      askTiersRun(ingressUrl, 'sandbox.runTests', withoutSignal(input), input.signal) as Promise<TestRunReport>,
    runCalls: (input) =>
      askTiersRun(ingressUrl, 'sandbox.runCalls', withoutSignal(input), input.signal) as Promise<CallsReport>,
  };
}

/**
 * Makes one `agent` call of the current tier work on its task's `tiers-run` object and answers its
 * output; an error answer is thrown (a `ValidationError` as one). Restate not answering (restarting)
 * is tried again under the same key until `signal` aborts (the agent's timeout).
 */
export async function askTiersRun(
  ingressUrl: string,
  agent: TiersCall,
  input: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const { task, key } = tierCallKey(agent, input);
  const call: BrainCall = { agent, id: key, input };
  const answer = await postUntilAnswered(`${ingressUrl}/${TIERS_RUN}/${encodeURIComponent(task)}/call`, call, signal);
  if ('output' in answer) return answer.output;
  const { name, message, issues } = answer.error;
  if (name === 'ValidationError') throw new ValidationError(message, issues ?? []);
  throw Object.assign(new Error(message), { name });
}

async function postUntilAnswered(url: string, call: BrainCall, signal?: AbortSignal): Promise<BrainAnswer> {
  for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
    let response: Response | undefined;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': call.id },
        body: JSON.stringify(call),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
    }
    if (response?.ok) return (await response.json()) as BrainAnswer;
    if (response && response.status < 500)
      throw new Error(
        `Restate refused the tiers' ${call.agent} call (${response.status}): ${await response.text()}. Check that the service endpoint serving ${TIERS_RUN} is registered.`,
      );
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
