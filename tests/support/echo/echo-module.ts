import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { fromPromise } from 'xstate';
import { z } from 'zod';
import { agentMachine, type AgentBrainLogic } from '../../../machines/runtime/agent.ts';
import { machineEntry } from '../../../machines/runtime/machine-entry.ts';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../../protocol/runtime/routing.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import { NotFoundError } from '../../../protocol/runtime/runtime-error.ts';
import { userIdOf } from '../../../server/auth.ts';
import { readJsonBody } from '../../../server/json-body.ts';
import { RunHost } from '../../../server/run-host/run-host.ts';
import { defineSystemModule } from '../../../server/system-module.ts';
import { inspectedRunSource } from '../../../server/viz/inspected-run-source.ts';
import type { RunInspectors } from '../../../server/viz/run-sources.ts';
import { echoOf, EchoEnvelopeSchema, textEnvelope, type EchoEnvelope } from './echo-envelope.ts';
import { echoRunMachine, type EchoRunContext } from './echo-run-machine.ts';

/** ECHO's brain: answers the user's text upper-cased. */
export const echoBrain: AgentBrainLogic = fromPromise<unknown, AgentBrainInput>(async ({ input }) =>
  echoOf((input.input as DeliveredMessage).envelope as EchoEnvelope),
);

/**
 * A tiny system written only against the runtime's contracts, to show that a module is served,
 * journaled, restored and drawn without any runtime file naming it: `POST /echo { text }` starts
 * a run, ECHO answers it upper-cased, `GET /echo/:id` shows the run.
 */
export function echoModule(options: { brain?: AgentBrainLogic } = {}) {
  return defineSystemModule({
    name: 'echo',
    title: 'Echo',
    machines: [
      machineEntry(echoRunMachine, {
        title: 'Echo run',
        summary: 'Hands the text to ECHO and waits for its answer.',
        file: 'tests/support/echo/echo-run-machine.ts',
        exportName: 'echoRunMachine',
      }),
    ],
    async open(services) {
      const inspectors: RunInspectors = new Set();
      const host = await RunHost.open({
        system: {
          name: 'echo',
          envelope: EchoEnvelopeSchema,
          routes: [
            { from: 'USER', to: 'ECHO', data_type: 'text' },
            { from: 'ECHO', to: 'USER', data_type: 'echo' },
          ],
          agents: {
            RUN: echoRunMachine,
            ECHO: agentMachine.provide({ actors: { brain: options.brain ?? echoBrain } }),
          },
          externals: ['USER'],
          orchestrator: 'RUN',
          partitionOf: (envelope) => String(envelope['run_id']),
        },
        journal: await services.journal<RoutedRecord>('echo'),
        store: services.store,
        runActor: 'RUN',
        durable: {
          finished: (snapshot) => snapshot.status === 'done',
          resume: { type: 'echo.resume' },
          rebuild: (run, entries) => {
            const first = entries[0]?.data.envelope as EchoEnvelope | undefined;
            if (first?.data_type !== 'text') throw new Error("its first envelope is not the user's text");
            run.send({ type: 'echo.start', envelope: first });
          },
        },
        ...(services.config.admission ? { admission: services.config.admission } : {}),
        ...(services.clock ? { clock: services.clock } : {}),
        inspect: (runId, event) => inspectors.forEach((inspector) => inspector(runId, event)),
      });
      const view = async (userId: string, runId: string) => {
        if ((await host.ownerOf(runId)) !== userId) throw new NotFoundError(`Echo run ${runId}`);
        const failure = await host.failureOf(runId);
        const snapshot = await host.snapshotOf(runId);
        const context = snapshot?.context as EchoRunContext | undefined;
        return {
          run_id: runId,
          state: failure ? 'failed' : String(snapshot?.value ?? 'unknown'),
          reply: context?.reply?.payload.text ?? null,
          ...(failure ? { failure } : {}),
        };
      };
      const routes = new Hono()
        .post('/', async (c) => {
          const { text } = await readJsonBody(c, z.strictObject({ text: z.string().min(1).max(1000) }));
          const run = host.start({ owner: userIdOf(c), partition: randomUUID() });
          const envelope = textEnvelope(run.partition, text);
          run.send({ type: 'echo.start', envelope });
          await run.journaled(envelope.message_id);
          await host.commit(run);
          return c.json({ run_id: run.partition }, 201);
        })
        .get('/:id', async (c) => c.json(await view(userIdOf(c), c.req.param('id'))))
        .get('/:id/messages', async (c) => {
          await view(userIdOf(c), c.req.param('id'));
          const journal = await services.journal<RoutedRecord>('echo');
          return c.json({ messages: (await journal.read(c.req.param('id'))).map((entry) => entry.data.envelope) });
        });
      return {
        host,
        routes: { '/echo': routes },
        runSources: [
          inspectedRunSource({
            machine: echoRunMachine,
            inspectors,
            owns: async (userId, runId) => (await host.ownerOf(runId)) === userId,
          }),
        ],
        close: () => host.close(),
      };
    },
  });
}
