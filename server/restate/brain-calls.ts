import { fromPromise } from 'xstate';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import type { BrainCall } from './run-object.ts';
import { errorOf, type BrainAnswer } from './served-brains.ts';

/**
 * The brain calls of one run as its Restate object sees them in one handler. An agent's brain
 * asks here: a call answered before (its answer is in the object's state) is answered at once
 * from it; a call already sent to the brains service waits for its answer (a later `answer`
 * invocation of the object); a new call is queued to be sent when the handler ends. So a brain
 * is called once per request id, whatever the replays and restores of the run.
 *
 * @example
 * const calls = new BrainCalls(state.answers, state.sent);
 * const system = definition(calls.brains(agents));
 */
export class BrainCalls {
  private readonly queued: BrainCall[] = [];

  constructor(
    private readonly answers: Readonly<Record<string, BrainAnswer>>,
    private readonly sent: ReadonlySet<string>,
  ) {}

  /** A brain for each agent that asks here. */
  brains(agents: readonly string[]): Record<string, AgentBrainLogic> {
    const brain = fromPromise<any, AgentBrainInput>(({ input }) => this.askBrain(input));
    return Object.fromEntries(agents.map((agent) => [agent, brain]));
  }

  /** The calls first made in this handler, to send to the brains service. */
  toSend(): BrainCall[] {
    return this.queued;
  }

  /**
   * One call named `id`: its answer from the state (the output, or the error thrown), else queued
   * once (unless sent already) and left waiting for the invocation its answer comes with.
   */
  call(agent: string, id: string, input: unknown): Promise<unknown> {
    const answer = this.answers[id];
    if (answer) return 'output' in answer ? Promise.resolve(answer.output) : Promise.reject(errorOf(answer));
    if (!this.sent.has(id) && !this.queued.some((call) => call.id === id)) this.queued.push({ agent, id, input });
    // Answered in a later invocation of the object, which restores the run and asks again.
    return new Promise(() => {});
  }

  private askBrain(input: AgentBrainInput): Promise<unknown> {
    // Each attempt is its own call: an agent's retry after a failed answer asks the brain again.
    return this.call(input.agent, `${input.requestId}#${input.attempt}`, input);
  }
}
