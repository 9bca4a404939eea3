import { realClock } from '../../actors/runtime/clock.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { KnowledgeGraph } from '../../actors/org/knowledge-graph.ts';
import { orgBrains, orgProducersFor } from '../../actors/org/org-brains-for.ts';
import type { TurnActivity, WorkspaceOf } from '../../actors/org/org-brains.ts';
import type { AgentBrainLogic } from '../../machines/runtime/agent.ts';
import type { OrgAgent } from '../../protocol/org/envelope.ts';
import { ORG_STATE_SCHEMA } from '../../actors/org/org-state-schema.ts';
import { MACHINES } from '../../machines/org/machines.ts';
import { orgSystem, PROJECT_RUN, type OrgSystemOptions } from '../../machines/org/org-system.ts';
import { projectRests } from '../../machines/org/project-run.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { RunHost } from '../run-host/run-host.ts';
import { defineSystemModule } from '../system-module.ts';
import { orgA2a } from './org-a2a-mapping.ts';
import { OrgProjects, type ProjectRecord } from './org-projects.ts';
import { orgRoutes } from './org-routes.ts';
import { ORG_ROUTE_DOCS } from './org-route-docs.ts';

/** What tests and benches may swap in: acknowledged delivery's backoff, brains' timeout, some agents' brains. */
export type OrgModuleOptions = Omit<OrgSystemOptions, 'brains'> & {
  /** Brains replacing the offline ones of the agents they name, over the projects' workspaces. */
  brains?: (workspaceOf: WorkspaceOf, activity: TurnActivity) => Partial<Record<OrgAgent, AgentBrainLogic>>;
};

/**
 * The product org (spec 004): eight agents exchanging v2.0 messages over the five channels,
 * acknowledged by the runtime, handing deliverables off under the `handoff` statechart, with a
 * knowledge graph per user. `POST /org/projects` starts a project from a PRD. With
 * `ANTHROPIC_API_KEY` the agents make their deliverables with Claude (one forced tool call each,
 * validated by the deliverable's schema); offline rules otherwise.
 */
export default defineSystemModule<OrgModuleOptions>({
  name: 'org',
  title: 'Product org (protocol v2.0)',
  spec: '004_ccf323e09b7eed88.txt',
  configKeys: [
    {
      name: 'ANTHROPIC_API_KEY',
      meaning:
        'product, backend, database, frontend, sdte, devops and growth make their deliverables with Claude (PRIMARY_MODEL)',
    },
  ],
  machines: MACHINES,
  routeDocs: ORG_ROUTE_DOCS,
  async open(services, options = {}) {
    const clock = services.clock ?? realClock;
    const journal = await services.journal<JournalRecord>('org');
    const stateJournal = await services.journal<unknown>('org-state');
    let host: RunHost | undefined;
    const projects = new OrgProjects({
      host: () => host!,
      journal,
      stateJournal,
      records: services.store.collection<ProjectRecord>('org/projects'),
      timed: services.store.collection<ProjectRecord>('org/timed'),
      clock,
    });
    host = await RunHost.open({
      system: orgSystem({
        ...options,
        requests: projects.requests,
        knowledge: projects.knowledge,
        brains: {
          ...orgBrains({
            workspaceOf: projects.workspaceOf,
            activity: projects.activity,
            produce: orgProducersFor(services.models),
          }),
          ...options.brains?.(projects.workspaceOf, projects.activity),
        },
      }),
      journal,
      store: services.store,
      runActor: PROJECT_RUN,
      // A refused envelope is journaled with its code and field: GET .../messages shows it.
      journalRefusals: true,
      // Journal first: a project brought back is handed what its receivers did not handle (restore).
      durable: {
        finished: () => false,
        resting: projectRests,
        resume: { type: 'project.resume' },
        rebuild: () => undefined,
      },
      ...(services.config.admission ? { admission: services.config.admission } : {}),
      ...(services.clock ? { clock: services.clock } : {}),
    });
    await projects.restore(host.livePartitions());
    const graphs = new Map<string, KnowledgeGraph>();
    const knowledgeOf = (owner: string) => {
      let graph = graphs.get(owner);
      if (!graph) {
        const state = openSharedState({ journal: stateJournal, schema: ORG_STATE_SCHEMA, scopes: { owner }, clock });
        graphs.set(owner, (graph = new KnowledgeGraph(state, () => clock.now())));
      }
      return graph;
    };
    return {
      routes: { '/org': orgRoutes(projects, knowledgeOf) },
      a2a: orgA2a(projects),
      close: () => {
        projects.close();
        return host.close();
      },
    };
  },
});
