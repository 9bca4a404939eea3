import type { AgentBrains } from '../../actors/coscientist/agents/agent-context.ts';
import { researchBrainsFor } from '../../actors/coscientist/agents/research-brains-for.ts';
import { realClock } from '../../actors/runtime/clock.ts';
import { ResourceLocks } from '../../actors/runtime/resource-locks.ts';
import type { TaskLogRecord } from '../../actors/runtime/task-queue-log.ts';
import { MACHINES } from '../../machines/coscientist/machines.ts';
import type { ResearchServices } from '../../machines/coscientist/open-research.ts';
import { researchMachine } from '../../machines/coscientist/research.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import type { RunHostOptions } from '../run-host/run-host.ts';
import { defineSystemModule, type OpenSystem } from '../system-module.ts';
import { inspectedRunSource } from '../viz/inspected-run-source.ts';
import type { RunInspectors } from '../viz/run-sources.ts';
import { coscientistA2a } from './a2a-mapping.ts';
import { researchRoutes } from './research-routes.ts';
import { ResearchService } from './research-service.ts';
import { RESEARCH_ROUTE_DOCS } from './research-route-docs.ts';

/** What tests and benchmarks may swap in the co-scientist. */
export type CoscientistOptions = Partial<
  Pick<ResearchServices, 'limits' | 'feedback' | 'k' | 'evolveCount' | 'pause' | 'fault' | 'onError'>
> & { brains?: AgentBrains; admission?: RunHostOptions['admission'] };

/** The co-scientist once open: its routes, and its service for tests. */
export interface OpenCoscientist extends OpenSystem {
  service: ResearchService;
}

/**
 * The research co-scientist (spec 003): goals under `/research`, each a run of the run host
 * (admission 503/429), with its context memory (journal `coscientist-memory`), task queue
 * (`coscientist-tasks`) and routed messages (`coscientist`); a goal that rests leaves memory,
 * unfinished goals resume at start-up, and `/viz/research?run=<id>` draws a goal live. With
 * `ANTHROPIC_API_KEY` every agent asks Claude (forced tool calls); offline otherwise.
 */
export default defineSystemModule<CoscientistOptions>({
  name: 'coscientist',
  title: 'Research co-scientist',
  spec: '003_eaf79ba5ea6093e5.txt',
  configKeys: [
    {
      name: 'ANTHROPIC_API_KEY',
      meaning: 'GENERATION, REFLECTION, RANKING (debates), EVOLUTION and META_REVIEW ask Claude (PRIMARY_MODEL)',
    },
  ],
  machines: MACHINES,
  routeDocs: RESEARCH_ROUTE_DOCS,
  async open(services, options = {}): Promise<OpenCoscientist> {
    const clock = services.clock ?? realClock;
    const { brains, admission, ...rest } = options;
    // Every inspection event of every live goal's `research` statechart, by goal id.
    const inspectors: RunInspectors = new Set();
    const service = new ResearchService(
      services.store,
      {
        memoryJournal: await services.journal<unknown>('coscientist-memory'),
        taskJournal: await services.journal<TaskLogRecord>('coscientist-tasks'),
        messageJournal: await services.journal<JournalRecord>('coscientist'),
        clock,
        locks: new ResourceLocks({ clock, leaseMs: 30_000 }),
        brains: brains ?? researchBrainsFor(services.models),
        onError: (error) => console.error(error),
        inspect: (id, event) => inspectors.forEach((inspector) => inspector(id, event)),
        ...rest,
      },
      { ...services.config.admission, ...admission },
    );
    await service.recover();
    return {
      routes: { '/research': researchRoutes(service) },
      runSources: [
        inspectedRunSource({
          machine: researchMachine,
          inspectors,
          owns: (userId, id) => service.owns(userId, id),
          current: (id) => service.liveState(id),
          stored: (id) => service.stateOf(id),
          list: async (userId) => service.working(userId),
        }),
      ],
      a2a: coscientistA2a(service),
      service,
      close: () => service.close(),
    };
  },
});
