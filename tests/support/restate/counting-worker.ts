import '../../../server/restate/with-resolvers.ts';
import * as restate from '@restatedev/restate-sdk';
import { journaledCall, type BrainCall, type RestateBrain } from '../../../server/restate/run-object.ts';
import { serveRestateEndpoint } from '../../../server/restate/service-endpoint.ts';

/*
 * A Restate service process for tests: its brains are fakes that ask the test's counting server
 * (COUNTER_URL) for their answer, so the test counts every call a brain really made, across
 * kill -9 of this process. Serves `counted-run` (the run object: one brain call per `call`) and
 * `counted-chain` (one invocation calling the agents of `steps` in turn, each a `ctx.run`).
 * Prints `ready` once it listens on PORT.
 */
const counterUrl = process.env.COUNTER_URL!;

const brain =
  (agent: string): RestateBrain =>
  async (input) => {
    const response = await fetch(`${counterUrl}/${agent}`, { method: 'POST', body: JSON.stringify(input) });
    return response.text();
  };

const agents = ['A', 'B', 'C'];
const brains = Object.fromEntries(agents.map((agent) => [agent, brain(agent)]));

/** One brain call per `call`, journaled; an agent without a brain is a terminal error naming the agents. */
const run = restate.object({
  name: 'counted-run',
  handlers: {
    call: async (ctx: restate.ObjectContext, call: BrainCall) => {
      const answer = brains[call.agent];
      if (!answer) throw new restate.TerminalError(`No brain for ${call.agent}: name one of ${agents.join(', ')}.`);
      return journaledCall(ctx, call, answer);
    },
  },
});

const chain = restate.object({
  name: 'counted-chain',
  handlers: {
    run: async (ctx: restate.ObjectContext, input: { steps: string[] }) => {
      const answers: unknown[] = [];
      for (const [index, agent] of input.steps.entries())
        answers.push(await journaledCall(ctx, { agent, id: `${ctx.key}-${index}`, input: answers }, brains[agent]!));
      return answers;
    },
  },
});

await serveRestateEndpoint([run, chain], Number(process.env.PORT));
console.log('ready');
