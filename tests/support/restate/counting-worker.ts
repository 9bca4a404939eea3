import '../../../server/restate/with-resolvers.ts';
import * as restate from '@restatedev/restate-sdk';
import { journaledCall, runObject, type RestateBrain } from '../../../server/restate/run-object.ts';
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

await serveRestateEndpoint([runObject('counted', brains), chain], Number(process.env.PORT));
console.log('ready');
