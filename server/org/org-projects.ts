import { randomUUID } from 'node:crypto';
import type { ServiceClock } from '../../actors/runtime/clock.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { Collection } from '../../actors/runtime/store.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import { ORG_STATE_SCHEMA } from '../../actors/org/org-state-schema.ts';
import { amendmentTask, openingTasks } from '../../actors/org/project-tasks.ts';
import { OrgWorkspace } from '../../actors/org/workspace.ts';
import type { HostedRun } from '../run-host/hosted-run.ts';
import type { RunHost } from '../run-host/run-host.ts';
import type { AmendPrdBody, CreateProjectBody, ResolveEscalationBody } from '../../protocol/org/http-bodies.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { Prd } from '../../protocol/org/prd.ts';
import type { JournalRecord } from '../../protocol/runtime/ack-record.ts';
import { ConflictError, NotFoundError } from '../../protocol/runtime/runtime-error.ts';
import { ProjectDeadlines } from './project-deadlines.ts';
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
  clock: ServiceClock;
}

/**
 * The org system's projects: a project is one journal partition (its id is every envelope's
 * `context.prd_id`) run by one hosted run while it works, with a workspace on shared state.
 * Answers the routes; owns no HTTP.
 */
export class OrgProjects {
  readonly #workspaces = new Map<string, OrgWorkspace>();
  readonly #inflight = new Map<string, number>();
  readonly #idleWaiters = new Map<string, Set<() => void>>();
  readonly #deadlines: ProjectDeadlines;
  #closed = false;

  constructor(private readonly deps: OrgProjectsDeps) {
    this.#deadlines = new ProjectDeadlines({
      clock: deps.clock,
      records: (projectId) => this.records(projectId),
      send: (ws, envelopes) => void this.#sendTo(ws.projectId, envelopes),
      onError: (error) => console.error('org deadlines:', error),
    });
  }

  /** Re-arms every project's deadline timers from the times its journal and escalations keep (on open). */
  async restore(): Promise<void> {
    for (const record of await this.deps.records.list()) await this.#deadlines.arm(this.workspace(record));
  }

  /** Cancels the deadline timers (on close). */
  close(): void {
    this.#closed = true;
    this.#deadlines.clear();
  }

  async #sendTo(projectId: string, envelopes: unknown[]): Promise<void> {
    const record = await this.deps.records.get(projectId);
    if (record) this.#send(record, envelopes);
  }

  /** The workspace of an open project (the brains' lookup). */
  readonly workspaceOf = (projectId: string) => this.#workspaces.get(projectId);

  /** Brains tell of each turn they start and end. */
  readonly activity = (projectId: string, delta: 1 | -1) => {
    const n = (this.#inflight.get(projectId) ?? 0) + delta;
    if (n > 0) return void this.#inflight.set(projectId, n);
    this.#inflight.delete(projectId);
    for (const wake of this.#idleWaiters.get(projectId) ?? []) wake();
  };

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

  /** Hands envelopes to the project's run (started if it is not live) and releases it once it is idle. */
  #send(record: ProjectRecord, envelopes: unknown[]): HostedRun {
    const host = this.deps.host();
    const run = host.get(record.project_id) ?? host.start({ owner: record.owner, partition: record.project_id });
    run.send({ type: 'project.send', envelopes });
    void this.idle(record.project_id)
      .then(async () => {
        if (host.get(record.project_id) === run && this.#quiet(record.project_id)) host.release(record.project_id);
        if (!this.#closed) await this.#deadlines.arm(this.workspace(record));
      })
      .catch((error: unknown) => console.error('org deadlines:', error));
    return run;
  }

  #quiet(projectId: string): boolean {
    return !this.#inflight.has(projectId);
  }

  /** Resolves once the project's run routed everything, no ack is pending and no brain works (three turns running). */
  async idle(projectId: string): Promise<void> {
    for (let stable = 0; stable < 3;) {
      const run = this.deps.host().get(projectId);
      if (run) await run.quiescent();
      if (!this.#quiet(projectId)) {
        stable = 0;
        await new Promise<void>((resolve) => {
          const waiters = this.#idleWaiters.get(projectId) ?? new Set();
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          this.#idleWaiters.set(projectId, waiters);
        });
        continue;
      }
      // A brain that just ended hands its output over in the next turns of the event loop.
      await new Promise<void>((resolve) => setImmediate(resolve));
      stable += 1;
    }
  }

  /** The project's run while it is live (what SSE watches). */
  liveRun(projectId: string): HostedRun | undefined {
    return this.deps.host().get(projectId);
  }

  /** Whether the project has nothing under way (its run released, no brain working). */
  isIdle(projectId: string): boolean {
    return !this.deps.host().get(projectId) && this.#quiet(projectId);
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
    const run = this.#send(record, tasks);
    await run.journaled(tasks[1]!.message_id);
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
    const run = this.#send(record, [task]);
    await run.journaled(task.message_id);
    return { project_id: projectId, prd_version: version + 1 };
  }

  /** An external agent's message into its project (already validated and channel-checked by the route). */
  async deliver(owner: string, envelope: OrgEnvelope) {
    const record = await this.own(owner, envelope.context?.prd_id ?? '');
    this.workspace(record);
    const run = this.#send(record, [envelope]);
    await run.journaled(envelope.message_id);
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
    const types = [
      'stories',
      'api_contract',
      'db_schema',
      'test_plan',
      'ui_plan',
      'deploy_plan',
      'experiments',
    ] as const;
    const deliverables = (await Promise.all(types.map((type) => ws.deliverable(type)))).flatMap((d) =>
      d ? [{ type: d.type, version: d.version, schema_version: d.schema_version, author: d.author, body: d.body }] : [],
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
    const ws = this.workspace(record);
    const escalation = await ws.escalation(escalationId);
    if (!escalation) throw new NotFoundError(`Escalation ${escalationId}`);
    if (escalation.status !== 'awaiting_user')
      throw new ConflictError(
        'not_awaiting_user',
        `Escalation ${escalationId} is ${escalation.status}; only one sent to you can be resolved here.`,
      );
    const pending = escalation.pending_decision as Parameters<OrgWorkspace['knowledge']['record']>[1] | undefined;
    if (body.apply_recommendation && pending) {
      const clashes = (await ws.knowledge.activeDecisionsTagged(pending.tags)).filter(
        (n) => n.claim?.topic === pending.claim?.topic && n.claim?.value !== pending.claim?.value,
      );
      await ws.knowledge.record('user', {
        ...pending,
        relations: clashes.map((n) => ({ type: 'supersedes' as const, to: n.node_id })),
      });
    }
    const resolved = {
      ...escalation,
      status: 'resolved' as const,
      resolution: {
        by: 'user' as const,
        decision: body.decision,
        applied_recommendation: body.apply_recommendation,
        at: new Date(this.deps.clock.now()).toISOString(),
      },
    };
    await ws.putEscalation('user', resolved);
    return resolved;
  }
}
