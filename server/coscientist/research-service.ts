import { randomUUID } from 'node:crypto';
import { inferDomain, SUPPORTED_DOMAINS } from '../../actors/coscientist/knowledge/knowledge-base.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { openResearch, type OpenResearch, type ResearchServices } from '../../machines/coscientist/open-research.ts';
import type { ResearchRecord } from '../../machines/coscientist/research-record.ts';
import type { CreateResearchBody } from '../../protocol/coscientist/research-body.ts';
import { NotFoundError, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { coscientistSystem } from '../../machines/coscientist/coscientist-system.ts';
import { RunHost, type RunHostOptions } from '../run-host/run-host.ts';
import { GoalResidency } from './goal-residency.ts';
import { emitResearchEvents, ResearchEvents } from './research-events.ts';

export type { ResearchEvent } from './research-events.ts';

interface GoalDoc {
  research_id: string;
  owner: string;
  created_at: string;
  /** The state the goal rested or ended in (the visualizer's view of a goal not in memory). */
  state?: string;
}

/** The states after which a goal waits for nobody but the scientist. */
export const SETTLED = new Set(['completed', 'stopped', 'awaiting_scientist']);

/**
 * The co-scientist's goals on the run host: a goal works as one of the host's runs (admitted, or
 * refused with 503/429 before anything is written), and once it is completed, stopped or waiting
 * for the scientist it rests: it leaves memory and the index of unfinished goals, and is read
 * from disk when asked. Start-up reopens only the goals in that index. A goal is its owner's:
 * any other user gets 404.
 */
export class ResearchService {
  readonly events = new ResearchEvents();
  readonly #residency: GoalResidency;
  readonly #host: RunHost;
  /** What each goal's journal held when it was opened (its supervisor's input). */
  readonly #journaledBefore = new Map<string, readonly string[]>();
  /** The owner of each goal opened live. */
  readonly #owners = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly services: Omit<ResearchServices, 'onState' | 'onMessage' | 'route'>,
    admission?: RunHostOptions['admission'],
  ) {
    this.#host = RunHost.ephemeral({
      system: coscientistSystem(),
      journal: services.messageJournal,
      store,
      runActor: 'SUPERVISOR',
      runInput: (partition) => ({ journaledIds: this.#journaledBefore.get(partition) ?? [] }),
      clock: services.clock,
      ...(admission ? { admission } : {}),
    });
    this.#residency = new GoalResidency({
      open: (id, owner, options) => this.#openLive(id, owner, options),
      openToRead: (id) => openResearch(id, this.services, undefined, { readOnly: true }),
      rested: (id, state) => this.#rested(id, state),
      quiescent: (id) => this.#host.get(id)?.quiescent() ?? Promise.resolve(),
      ...(services.onError ? { onError: services.onError } : {}),
    });
  }

  get #goals() {
    return this.store.collection<GoalDoc>('coscientist/goals');
  }
  get #unfinished() {
    return this.store.collection<GoalDoc>('coscientist/unfinished');
  }

  /** Reopens every goal that was working when the process stopped (the index only; never refused). */
  async recover(): Promise<void> {
    for (const doc of await this.#unfinished.list())
      void this.#residency
        .wake(doc.research_id, doc.owner, { recovered: true })
        .catch((e) => this.services.onError?.(e));
  }

  /** `POST /research`: admission first, then the domain (inferred when absent; outside the built-in ones: 400). */
  async create(owner: string, body: CreateResearchBody): Promise<{ research_id: string; state: string }> {
    this.#host.checkAdmission(owner);
    const domain = body.domain ?? inferDomain(body.goal);
    if (!domain) {
      throw new ValidationError(
        `The goal names no built-in domain: give domain, one of ${SUPPORTED_DOMAINS.join(', ')}.`,
        [{ path: 'domain', message: `Offline research supports ${SUPPORTED_DOMAINS.join(', ')}.` }],
        'unsupported_domain',
      );
    }
    const research_id = randomUUID();
    const doc: GoalDoc = { research_id, owner, created_at: new Date(this.services.clock.now()).toISOString() };
    await this.#goals.put(research_id, doc);
    await this.#unfinished.put(research_id, doc);
    const { goal, preferences, constraints, iterations, hypotheses_per_iteration } = body;
    const content = { goal, domain, preferences, constraints, iterations, hypotheses_per_iteration };
    const state = await this.#residency.wake(research_id, owner, { goal: content }, (r) => r.run.record.state);
    return { research_id, state };
  }

  /** Reads the owner's goal: live if it works, else opened from disk for the read; 404 for anyone else. */
  async read<T>(owner: string, id: string, use: (research: OpenResearch) => T | Promise<T>): Promise<T> {
    await this.#own(owner, id);
    return this.#residency.read(id, use);
  }

  /** Acts on the owner's goal, waking it if it rests (admission checked: 503/429 when full). */
  async act<T>(owner: string, id: string, use: (research: OpenResearch) => T | Promise<T>): Promise<T> {
    await this.#own(owner, id);
    return this.#residency.wake(id, owner, {}, use);
  }

  /** Whether the goal is `owner`'s. */
  async owns(owner: string, id: string): Promise<boolean> {
    return (await this.#goals.get(id).catch(() => undefined))?.owner === owner;
  }

  /** The goal's state: live, else where it rested (undefined if never settled in this store). */
  async stateOf(id: string): Promise<string | undefined> {
    return this.#residency.liveState(id) ?? (await this.#goals.get(id).catch(() => undefined))?.state;
  }

  /** The owner's goals in memory (working), for the visualizer's list of runs under way. */
  working(owner: string): { id: string; label: string; state: string }[] {
    return this.#residency
      .live()
      .filter((research) => this.#owners.get(research.researchId) === owner)
      .map((research) => ({ id: research.researchId, label: research.goal.goal, state: research.run.record.state }));
  }

  /** The goal's state if it is live now (the visualizer's current value). */
  liveState(id: string): string | undefined {
    return this.#residency.liveState(id);
  }

  async close(): Promise<void> {
    await this.#residency.close();
    await this.#host.close();
  }

  async #own(owner: string, id: string): Promise<void> {
    if (!(await this.owns(owner, id))) throw new NotFoundError(`Research ${id}`);
  }

  /** Opens a goal live: its supervisor is a run of the host (admitted, or refused before anything opens). */
  async #openLive(
    id: string,
    owner: string,
    options: { goal?: Parameters<typeof openResearch>[2]; recovered?: boolean },
  ): Promise<OpenResearch> {
    if (!options.recovered) this.#host.checkAdmission(owner);
    this.#owners.set(id, owner);
    // Indexed before it works again (a goal woken from rest), so a kill -9 from here on resumes it.
    if (!options.goal && !options.recovered)
      await this.#unfinished.put(id, { research_id: id, owner, created_at: new Date().toISOString() });
    const research = await openResearch(
      id,
      {
        ...this.services,
        route: (researchId, journaledIds) => {
          this.#journaledBefore.set(researchId, journaledIds);
          const run = this.#host.start({
            owner,
            partition: researchId,
            ...(options.recovered ? { recovered: true } : {}),
          });
          this.#journaledBefore.delete(researchId);
          return { supervisor: run.supervisor, release: () => this.#host.release(researchId) };
        },
        onState: (researchId, record) => this.#onState(researchId, record),
      },
      options.goal,
    );
    emitResearchEvents(this.events, research);
    return research;
  }

  #onState(id: string, record: ResearchRecord): void {
    const data = {
      state: record.state,
      iteration: record.iteration,
      ...(record.question ? { question: record.question } : {}),
    };
    this.events.emit(id, { event: 'state', data });
    if (SETTLED.has(record.state)) this.#residency.settleSoon(id);
  }

  /** A goal rested or ended: out of the index of unfinished goals, its state noted for the visualizer. */
  async #rested(id: string, state: string): Promise<void> {
    this.#owners.delete(id);
    await this.#unfinished.delete(id);
    const doc = await this.#goals.get(id).catch(() => undefined);
    if (doc) await this.#goals.put(id, { ...doc, state });
  }
}
