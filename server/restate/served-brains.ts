import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { RestateBrain } from './run-object.ts';

/**
 * What a served brain's `ctx.run` journals: its output, or the error it ended with (an error is
 * an answer too: thrown inside `ctx.run`, Restate would retry it forever).
 */
export type BrainAnswer = { output: unknown } | { error: { name: string; message: string; issues?: ErrorIssue[] } };

/** An error answer as the error the brain threw (a `ValidationError` stays one). */
export function errorOf(answer: Extract<BrainAnswer, { error: unknown }>): Error {
  const { name, message, issues } = answer.error;
  if (name === 'ValidationError') return new ValidationError(message, issues ?? []);
  return Object.assign(new Error(message), { name });
}

/**
 * A system's brains (the promise logic its agents run) as the run object's brains, in a Restate
 * service process: each gets the agent's request as its input and answers a {@link BrainAnswer}.
 *
 * @example
 * runHostServices(nutritionRunSpec(), servedBrains(offlineNutritionBrains()));
 */
export function servedBrains(brains: Readonly<Record<string, AgentBrainLogic>>): Record<string, RestateBrain> {
  return Object.fromEntries(
    Object.entries(brains).map(([agent, logic]) => [
      agent,
      async (input: unknown): Promise<BrainAnswer> => {
        try {
          // Promise logic is its creator (`config`); a served brain has no actor around it.
          const create = logic.config as unknown as (args: object) => Promise<unknown>;
          const signal = new AbortController().signal;
          return {
            output: await create({
              input: input as AgentBrainInput,
              signal,
              self: undefined,
              system: undefined,
              emit: () => {},
            }),
          };
        } catch (error) {
          const {
            name = 'Error',
            message = String(error),
            issues,
          } = error as { name?: string; message?: string; issues?: ErrorIssue[] };
          return { error: { name, message, ...(issues ? { issues } : {}) } };
        }
      },
    ]),
  );
}
