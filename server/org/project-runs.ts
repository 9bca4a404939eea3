import { projectRests } from '../../machines/org/project-run.ts';
import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { RefusedRecord } from '../../protocol/runtime/refused-record.ts';
import type { HostedRun } from '../run-host/hosted-run.ts';
import type { RunHost } from '../run-host/run-host.ts';

/** Whose project a run is (its partition is the project's id). */
export interface ProjectOwner {
  project_id: string;
  owner: string;
}

/**
 * A send handed to a project's run: `ready(id)` resolves once that envelope is journaled and the
 * project indexed, or with its `refused` record once that is journaled.
 */
export interface ProjectSend {
  run: HostedRun;
  ready(messageId: string): Promise<RefusedRecord | undefined>;
}

export interface ProjectRunsDeps {
  host: () => RunHost;
  /** Told of every envelope a project's run routes (the deadline timers arm on it at once). */
  onRouted?: (project: ProjectOwner, envelope: OrgEnvelope) => void;
  /** Told once a project's run went idle (re-arm its deadlines, note what it waits for). */
  onIdle?: (project: ProjectOwner) => Promise<void>;
  onError?: (error: unknown) => void;
}

/**
 * The org projects' runs on the durable run host: a send wakes a resting project (or starts a
 * new one, indexed once its first envelope is journaled), and a project whose agents all went
 * idle is told `project.settled`, so that the host writes it down and lets it go (it rests: it
 * is neither rebuilt at start-up nor counted as working). Brains report each turn they start and
 * end through {@link activity}.
 *
 * @example
 * const { ready } = await runs.send(record, envelopes, { work: true });
 * await ready(envelopes[0].message_id); // journaled and indexed: tell the client
 */
export class ProjectRuns {
  readonly #inflight = new Map<string, number>();
  readonly #idleWaiters = new Map<string, Set<() => void>>();
  readonly #watched = new WeakSet<HostedRun>();
  #closed = false;

  constructor(private readonly deps: ProjectRunsDeps) {}

  /** Brains tell of each turn they start (+1) and end (-1). */
  readonly activity = (projectId: string, delta: 1 | -1) => {
    const n = (this.#inflight.get(projectId) ?? 0) + delta;
    if (n > 0) return void this.#inflight.set(projectId, n);
    this.#inflight.delete(projectId);
    for (const wake of this.#idleWaiters.get(projectId) ?? []) wake();
  };

  /**
   * Hands `envelopes` to the project's run, woken from its snapshot or started. With `work`,
   * admission is checked for its owner first (503 or 429, nothing sent); an internal send (a
   * deadline's escalation) is never refused. `redeliver` hands journaled envelopes over again.
   */
  async send(
    project: ProjectOwner,
    envelopes: unknown[],
    options: { work?: boolean; redeliver?: boolean } = {},
  ): Promise<ProjectSend> {
    const host = this.deps.host();
    const { project_id: id, owner } = project;
    const { run: woken, unpin } = await host.pin(id, options.work ? { workFor: owner } : {});
    try {
      const run = woken ?? host.start({ owner, partition: id });
      this.#watch(project, run);
      run.send({ type: options.redeliver ? 'project.redeliver' : 'project.send', envelopes });
      this.#settleWhenIdle(project, run);
      return {
        run,
        ready: async (messageId) => {
          const refused = await run.journaled(messageId);
          if (!woken) await host.commit(run);
          return refused;
        },
      };
    } finally {
      unpin();
    }
  }

  /** A run the host brought back at start-up: watched, and let rest once idle. */
  adopt(project: ProjectOwner, run: HostedRun): void {
    this.#watch(project, run);
    this.#settleWhenIdle(project, run);
  }

  /** The project's run while it is live (what SSE watches). */
  live(projectId: string): HostedRun | undefined {
    return this.deps.host().get(projectId);
  }

  /** Whether the project has nothing under way (its run resting or let go, no brain working). */
  isIdle(projectId: string): boolean {
    const run = this.live(projectId);
    return (!run || projectRests(run.snapshot())) && !this.#inflight.has(projectId);
  }

  /** Resolves once the project's run routed everything, no ack is pending and no brain works (three turns running). */
  async idle(projectId: string): Promise<void> {
    for (let stable = 0; stable < 3;) {
      const run = this.live(projectId);
      if (run) await run.quiescent();
      if (this.#inflight.has(projectId)) {
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

  close(): void {
    this.#closed = true;
  }

  #watch(project: ProjectOwner, run: HostedRun): void {
    if (this.#watched.has(run) || !this.deps.onRouted) return;
    this.#watched.add(run);
    const onRouted = this.deps.onRouted;
    run.watch((event) => {
      if (event.type === 'message') onRouted(project, event.data as OrgEnvelope);
    });
  }

  #settleWhenIdle(project: ProjectOwner, run: HostedRun): void {
    const id = project.project_id;
    void this.idle(id)
      .then(async () => {
        if (this.#closed) return;
        if (this.live(id) === run && !this.#inflight.has(id)) run.send({ type: 'project.settled' });
        await this.deps.onIdle?.(project);
      })
      .catch((error: unknown) => (this.deps.onError ?? console.error)(error));
  }
}
