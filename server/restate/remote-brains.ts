import { fromPromise } from 'xstate';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { BrainCall } from './run-object.ts';
import type { BrainAnswer } from './served-brains.ts';

export interface RemoteBrainsOptions {
  /** The Restate ingress (`RESTATE_INGRESS_URL`). */
  ingressUrl: string;
  /** The system whose run object answers (`<system>-run`, see `runObject`). */
  system: string;
  agents: readonly string[];
  /** The run a request belongs to (its journal partition): the virtual object's key. */
  keyOf: (input: AgentBrainInput) => string;
}

/**
 * Brains that answer on a Restate deployment: each call goes to the ingress as
 * `<system>-run/<run>/call` with the request's id (the envelope's message id) as idempotency key,
 * so an agent's retry, or the same call after a lost connection (Restate restarted), attaches to
 * the first invocation instead of calling the brain again. The service processes run the real
 * brains (`servedBrains`). A `ValidationError` comes back as one; other errors as `Error`s.
 *
 * @example
 * const brains = remoteBrains({ ingressUrl, system: 'nutrition', agents, keyOf: (input) => runOf(input) });
 */
export function remoteBrains(options: RemoteBrainsOptions): Record<string, AgentBrainLogic> {
  const brain = fromPromise<any, AgentBrainInput>(async ({ input, signal }) => {
    const call: BrainCall = { agent: input.agent, id: input.requestId, input };
    const url = `${options.ingressUrl}/${options.system}-run/${encodeURIComponent(options.keyOf(input))}/call`;
    const answer = await callUntilAnswered(url, call, signal);
    if ('output' in answer) return answer.output;
    if (answer.error.name === 'ValidationError')
      throw new ValidationError(answer.error.message, answer.error.issues ?? []);
    throw new Error(answer.error.message);
  });
  return Object.fromEntries(options.agents.map((agent) => [agent, brain]));
}

/** Posts `call` until Restate answers it: a refused connection (a restart) is tried again, under the same key. */
async function callUntilAnswered(url: string, call: BrainCall, signal: AbortSignal): Promise<BrainAnswer> {
  for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
    let response: Response | undefined;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': call.id },
        body: JSON.stringify(call),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
    }
    if (response?.ok) return (await response.json()) as BrainAnswer;
    if (response && response.status < 500)
      throw new Error(`Restate refused the call to ${call.agent} (${response.status}): ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
