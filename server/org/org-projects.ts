import { randomUUID } from 'node:crypto';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Collection } from '../../actors/runtime/store.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { ORG_STATE_SCHEMA } from '../../actors/org/org-state-schema.ts';
import { amendmentTask, openingTasks } from '../../actors/org/project-tasks.ts';
import { KnowledgeIds } from '../../actors/org/knowledge-ids.ts';
import { OpenRequests } from '../../actors/org/open-requests.ts';
import { OrgWorkspace } from '../../actors/org/workspace.ts';
import type { HostedRun } from '../run-host/hosted-run.ts';
import type { RunHost } from '../run-host/run-host.ts';
import type { AmendPrdBody, CreateProjectBody, ResolveEscalationBody } from '../../protocol/org/http-bodies.ts';
import { DeliverableTypeSchema } from '../../protocol/org/deliverables.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { Prd } from '../../protocol/org/prd.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { ConflictError, NotFoundError, RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { ProjectDeadlines } from './project-deadlines.ts';
import { resolveEscalation } from './resolve-escalation.ts';
import { unhandledOf } from './project-recovery.ts';
import { ProjectRuns } from './project-runs.ts';
import { handoffsOfJournal, messagesWithAcks, projectStatus } from './project-views.ts';

/** What the store keeps of a project: whose it is and its sprint (the rest is its journal and workspace). */
export interface ProjectRecord {
  project_id: string;
  owner: string;
  sprint_id: string;
  created_at: string;
}

export interface OrgProjectsDeps {
  host: () => RunHost;
  journal: Journal<JournalRecord>;
  stateJournal: Journal<unknown>;
  records: Collection<ProjectRecord>;
  /** The index of projects with deadline timers armed (a resting project's are re-armed at start-up). */
  timed: Collection<ProjectRecord>;
  clock: ServiceClock;
}

/**
 * The org system's projects: a project is one journal partition (its id is every envelope's
 * `context.prd_id`) run by one hosted run on the durable run host while it works, resting once
 * idle, with a workspace on shared state. Answers the routes; owns no HTTP.
 */
export class OrgProjects {
  readonly #workspaces = new Map<string, OrgWorkspace>();
  readonly #deadlines: ProjectDeadlines;
  readonly #runs: ProjectRuns;
  /** What the admission rule checks responses against (loaded from a project's journal before it takes a message). */
  readonly requests = new OpenRequests();
  /** The node ids a message may cite (its owner's knowledge graph, read when a project wakes and followed). */
  readonly knowledge: KnowledgeIds;
  #closed = false;

  constructor(private readonly deps: OrgProjectsDeps) {
    this.knowledge = new KnowledgeIds((owner) =>
      openSharedState({ journal: deps.stateJournal, schema: ORG_STATE_SCHEMA, scopes: { owner }, clock: deps.clock }),
    );
    const onError = (error: unknown) => console.error('org deadlines:', error);
    this.#deadlines = new ProjectDeadlines({
      clock: deps.clock,
      records: (projectId) => this.records(projectId),
      send: (ws, envelopes) => void this.#sendTo(ws.projectId, envelopes).catch(onError),
      onError,
    });
    this.#runs = new ProjectRuns({
      host: deps.host,
      onRouted: (project, envelope) => {
        const ws = this.#workspaces.get(project.project_id);
        if (ws && !this.#closed) this.#deadlines.armMessage(ws, envelope);
      },
      onIdle: async (project) => {
        if (this.#closed) return;
        if (this.#runs.isIdle(project.project_id)) {
          this.requests.forget(project.project_id);
          this.knowledge.forget(project.project_id, project.owner);
        }
        const record = await this.deps.records.get(project.project_id);
        if (record) await this.#armDeadlines(record);
      },
      onError,
    });
  }

  /**
   * After the host brought back the unfinished projects (journal first): hands each one what its
   * journal holds that a receiver has not handled, lets it rest once idle, and re-arms deadline
   * timers of those and of the projects in the index of timed ones. Reads no other project.
   */
  async restore(recovered: readonly string[]): Promise<void> {
    const ids = new Set([...recovered, ...(await this.deps.timed.list()).map((r) => r.project_id)]);
    for (const id of ids) {
      const record = await this.deps.records.get(id);
      if (!record) continue;
      const run = this.#runs.live(id);
      if (run) {
        const records = await this.records(id);
        this.requests.load(id, records);
        await this.knowledge.load(id, record.owner);
        const pending = await unhandledOf(records, this.workspace(record));
        if (pending.length > 0) run.send({ type: 'project.redeliver', envelopes: pending });
        this.#runs.adopt(record, run);
      }
      await this.#armDeadlines(record);
    }
  }

  /** Cancels the deadline timers (on close). */
  close(): void {
    this.#closed = true;
    this.#runs.close();
    this.#deadlines.clear();
  }

  async #armDeadlines(record: ProjectRecord): Promise<void> {
    await this.#deadlines.arm(this.workspace(record));
    if (this.#closed) return;
    if (this.#deadlines.armedFor(record.project_id) > 0) await this.deps.timed.put(record.project_id, record);
    else await this.deps.timed.delete(record.project_id);
  }

  async #sendTo(projectId: string, envelopes: unknown[]): Promise<void> {
    const record = await this.deps.records.get(projectId);
    if (record && !this.#closed) await this.#send(record, envelopes);
  }

  /** Loads what the admission rule checks a project's messages against: its open requests, its owner's node ids. */
  async #known(record: ProjectRecord): Promise<void> {
    const id = record.project_id;
    if (!this.knowledge.has(id)) await this.knowledge.load(id, record.owner);
    if (!this.requests.has(id)) this.requests.load(id, await this.records(id));
  }

  /** Sends into a project once what its messages are checked against is known (read when it was resting). */
  async #send(record: ProjectRecord, envelopes: unknown[], options: { work?: boolean } = {}) {
    await this.#known(record);
    return this.#runs.send(record, envelopes, options);
  }

  /** The workspace of a project (the brains' lookup): read from its record when not open yet. */
  readonly workspaceOf = async (projectId: string): Promise<OrgWorkspace | undefined> => {
    const open = this.#workspaces.get(projectId);
    if (open) return open;
    const record = await this.deps.records.get(projectId);
    return record ? this.workspace(record) : undefined;
  };

  /** Brains tell of each turn they start and end. */
  get activity() {
    return this.#runs.activity;
  }

  async own(owner: string, projectId: string): Promise<ProjectRecord> {
    const record = await this.deps.records.get(projectId);
    if (!record || record.owner !== owner) throw new NotFoundError(`Project ${projectId}`);
    return record;
  }

  workspace(record: ProjectRecord): OrgWorkspace {
    let ws = this.#workspaces.get(record.project_id);
    if (!ws) {
      const { clock } = this.deps;
      const state = openSharedState({
        journal: this.deps.stateJournal,
        schema: ORG_STATE_SCHEMA,
        scopes: { project: record.project_id, owner: record.owner },
        clock,
      });
      ws = new OrgWorkspace(state, record.project_id, record.sprint_id, record.owner, () => clock.now());
      this.#workspaces.set(record.project_id, ws);
    }
    return ws;
  }

  /** Resolves once the project's run routed everything, no ack is pending and no brain works. */
  idle(projectId: string): Promise<void> {
    return this.#runs.idle(projectId);
  }

  /** The project's run while it is live (what SSE watches). */
  liveRun(projectId: string): HostedRun | undefined {
    return this.#runs.live(projectId);
  }

  /** Whether the project has nothing under way (its run resting or let go, no brain working). */
  isIdle(projectId: string): boolean {
    return this.#runs.isIdle(projectId);
  }

  async create(owner: string, body: CreateProjectBody) {
    this.deps.host().checkAdmission(owner);
    const record: ProjectRecord = {
      project_id: randomUUID(),
      owner,
      sprint_id: body.sprint_id ?? `sprint-${new Date(this.deps.clock.now()).toISOString().slice(0, 10)}`,
      created_at: new Date(this.deps.clock.now()).toISOString(),
    };
    await this.deps.records.put(record.project_id, record);
    const ws = this.workspace(record);
    await ws.put('user', 'prd', { version: 1, prd: body.prd });
    const tasks = openingTasks({
      projectId: record.project_id,
      sprintId: record.sprint_id,
      at: this.deps.clock.now(),
      prdVersion: 1,
      ...(body.prd.priority ? { priority: body.prd.priority } : {}),
    });
    const { ready } = await this.#send(record, tasks, { work: true });
    await ready(tasks[1]!.message_id);
    return { project_id: record.project_id, sprint_id: record.sprint_id, status: 'working' as const };
  }

  async amend(owner: string, projectId: string, body: AmendPrdBody) {
    const record = await this.own(owner, projectId);
    const ws = this.workspace(record);
    const { version, prd } = await ws.prd();
    const features = new Map(prd.features.map((f) => [f.id, f]));
    for (const feature of body.features ?? []) features.set(feature.id, feature);
    for (const { feature_id, constraint } of body.constraints ?? []) {
      const feature = features.get(feature_id);
      if (!feature)
        throw new ConflictError('unknown_feature', `The PRD has no feature ${feature_id}; add it in features first.`);
      features.set(feature_id, { ...feature, constraints: [...(feature.constraints ?? []), constraint] });
    }
    const amended: Prd = { ...prd, features: [...features.values()] };
    await ws.put('user', 'prd', { version: version + 1, prd: amended });
    const task = amendmentTask({
      projectId,
      sprintId: record.sprint_id,
      at: this.deps.clock.now(),
      prdVersion: version + 1,
    });
    const { ready } = await this.#send(record, [task], { work: true });
    await ready(task.message_id);
    return { project_id: projectId, prd_version: version + 1 };
  }

  /**
   * An external agent's message into its project (its schema checked by the route): admitted by
   * the supervisor like any other, or refused there (channel, cited nodes, open request), its
   * refusal journaled, then answered 422 naming the field.
   */
  async deliver(owner: string, envelope: OrgEnvelope) {
    const record = await this.own(owner, envelope.context?.prd_id ?? '');
    this.workspace(record);
    const { ready } = await this.#send(record, [envelope], { work: true });
    const refused = await ready(envelope.message_id);
    if (refused) {
      const issue = { path: refused.field ?? '', message: refused.message };
      throw new RuntimeError(refused.code, refused.message, 422, [issue]);
    }
    return { message_id: envelope.message_id };
  }

  async records(projectId: string): Promise<JournalRecord[]> {
    return (await this.deps.journal.read(projectId)).map((entry) => entry.data);
  }

  async view(owner: string, projectId: string) {
    const record = await this.own(owner, projectId);
    const ws = this.workspace(record);
    const [records, escalations, prd] = await Promise.all([this.records(projectId), ws.escalations(), ws.prd()]);
    const handoffs = handoffsOfJournal(records);
    const deliverables = (await Promise.all(DeliverableTypeSchema.options.map((type) => ws.deliverable(type)))).flatMap(
      (d) =>
        d
          ? [{ type: d.type, version: d.version, schema_version: d.schema_version, author: d.author, body: d.body }]
          : [],
    );
    const idle = this.isIdle(projectId);
    return {
      project_id: projectId,
      sprint_id: record.sprint_id,
      prd_version: prd.version,
      status: projectStatus(handoffs, escalations, idle),
      deliverables,
      handoffs,
      escalations,
    };
  }

  async messages(owner: string, projectId: string) {
    await this.own(owner, projectId);
    return { messages: messagesWithAcks(await this.records(projectId)) };
  }

  async resolve(owner: string, projectId: string, escalationId: string, body: ResolveEscalationBody) {
    const record = await this.own(owner, projectId);
    return resolveEscalation(this.workspace(record), escalationId, body, this.deps.clock.now());
  }
}
