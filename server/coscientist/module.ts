import type { AgentBrains } from '../../actors/coscientist/agents/agent-context.ts';
import { OFFLINE_BRAINS } from '../../actors/coscientist/agents/offline-brains.ts';
import { realClock } from '../../actors/runtime/clock.ts';
import { ResourceLocks } from '../../actors/runtime/resource-locks.ts';
import type { TaskLogRecord } from '../../actors/runtime/task-queue-log.ts';
import { MACHINES } from '../../machines/coscientist/machines.ts';
import type { ResearchServices } from '../../machines/coscientist/open-research.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { defineSystemModule, type OpenSystem } from '../system-module.ts';
import { researchRoutes } from './research-routes.ts';
import { ResearchService } from './research-service.ts';
import { RESEARCH_ROUTE_DOCS } from './research-route-docs.ts';

/** What tests and benchmarks may swap in the co-scientist. */
export type CoscientistOptions = Partial<
  Pick<ResearchServices, 'limits' | 'feedback' | 'k' | 'evolveCount' | 'pause' | 'fault' | 'onError'>
> & { brains?: AgentBrains };

/** The co-scientist once open: its routes, and its service for tests. */
export interface OpenCoscientist extends OpenSystem {
  service: ResearchService;
}

/**
 * The research co-scientist (spec 003): goals under `/research`, each with its context memory
 * (journal `coscientist-memory`), task queue (`coscientist-tasks`) and routed messages
 * (`coscientist`), one partition set per goal; unfinished goals resume at start-up.
 */
export default defineSystemModule<CoscientistOptions>({
  name: 'coscientist',
  title: 'Research co-scientist',
  spec: '003_eaf79ba5ea6093e5.txt',
  machines: MACHINES,
  routeDocs: RESEARCH_ROUTE_DOCS,
  async open(services, options = {}): Promise<OpenCoscientist> {
    const clock = services.clock ?? realClock;
    const { brains, ...rest } = options;
    const service = new ResearchService(services.store, {
      memoryJournal: await services.journal<unknown>('coscientist-memory'),
      taskJournal: await services.journal<TaskLogRecord>('coscientist-tasks'),
      messageJournal: await services.journal<JournalRecord>('coscientist'),
      clock,
      locks: new ResourceLocks({ clock, leaseMs: 30_000 }),
      brains: brains ?? OFFLINE_BRAINS,
      onError: (error) => console.error(error),
      ...rest,
    });
    await service.recover();
    return { routes: { '/research': researchRoutes(service) }, service, close: () => service.close() };
  },
});
