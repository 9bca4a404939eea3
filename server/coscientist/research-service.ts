import { randomUUID } from 'node:crypto';
import { inferDomain, SUPPORTED_DOMAINS } from '../../actors/coscientist/knowledge/knowledge-base.ts';
import type { Store } from '../../actors/runtime/store.ts';
import { openResearch, type OpenResearch, type ResearchServices } from '../../machines/coscientist/open-research.ts';
import type { ResearchRecord } from '../../machines/coscientist/research-record.ts';
import type { CoscientistMessage } from '../../protocol/coscientist/message.ts';
import type { CreateResearchBody } from '../../protocol/coscientist/research-body.ts';
import { NotFoundError, ValidationError } from '../../protocol/runtime/runtime-error.ts';

/** What a goal's stream hears. */
export type ResearchEvent =
  | { event: 'state'; data: { state: string; iteration: number; question?: string } }
  | { event: 'task'; data: { task_id: string; type: string } }
  | { event: 'match'; data: Record<string, unknown> }
  | { event: 'memory'; data: { entry_type: string; entry_id: string; version: number; partial?: boolean } };

interface GoalDoc {
  research_id: string;
  owner: string;
  created_at: string;
}

/** The states after which a goal waits for nobody but the scientist. */
export const SETTLED = new Set(['completed', 'stopped', 'awaiting_scientist']);

/**
 * The co-scientist's goals: created from the scientist's body, kept live while they work, found
 * again after a restart from the index of unfinished goals (their memory, queue and messages are
 * on disk), and watched by SSE. A goal is its owner's: any other user gets 404.
 */
export class ResearchService {
  readonly #live = new Map<string, Promise<OpenResearch>>();
  readonly #listeners = new Map<string, Set<(event: ResearchEvent) => void>>();
  readonly #times = new Map<string, Map<string, { assigned_at?: string; finished_at?: string }>>();

  constructor(
    private readonly store: Store,
    private readonly services: Omit<ResearchServices, 'onState' | 'onMessage'>,
  ) {}

  get #goals() {
    return this.store.collection<GoalDoc>('coscientist/goals');
  }
  get #unfinished() {
    return this.store.collection<GoalDoc>('coscientist/unfinished');
  }

  /** Reopens every goal that was working when the process stopped. */
  async recover(): Promise<void> {
    for (const doc of await this.#unfinished.list())
      void this.#open(doc.research_id).catch((e) => this.services.onError?.(e));
  }

  /** `POST /research`: infers the domain when absent; a goal outside the built-in ones is refused (offline). */
  async create(owner: string, body: CreateResearchBody): Promise<{ research_id: string; state: string }> {
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
    const opening = this.#open(research_id, {
      goal,
      domain,
      preferences,
      constraints,
      iterations,
      hypotheses_per_iteration,
    });
    const research = await opening;
    return { research_id, state: research.run.record.state };
  }

  /** The owner's goal, live (opened from disk if need be); 404 for anyone else. */
  async get(owner: string, id: string): Promise<OpenResearch> {
    const doc = await this.#goals.get(id).catch(() => undefined);
    if (!doc || doc.owner !== owner) throw new NotFoundError(`Research ${id}`);
    return this.#open(id);
  }

  /** When each task was assigned and finished (from its messages). */
  timesOf(id: string) {
    return this.#times.get(id) ?? new Map();
  }

  /** Hears the goal's events until the returned function is called. */
  watch(id: string, listener: (event: ResearchEvent) => void): () => void {
    let set = this.#listeners.get(id);
    if (!set) this.#listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    const open = await Promise.allSettled(this.#live.values());
    for (const r of open) if (r.status === 'fulfilled') await r.value.close();
    this.#live.clear();
  }

  #emit(id: string, event: ResearchEvent): void {
    for (const listener of this.#listeners.get(id) ?? []) listener(event);
  }

  #open(id: string, goal?: Parameters<typeof openResearch>[2]): Promise<OpenResearch> {
    let opening = this.#live.get(id);
    if (opening) return opening;
    const services: ResearchServices = {
      ...this.services,
      onState: (researchId, record) => this.#onState(researchId, record),
      onMessage: (researchId, message) => this.#onMessage(researchId, message),
    };
    opening = openResearch(id, services, goal).then((research) => {
      research.queue.subscribe((event) =>
        this.#emit(id, { event: 'task', data: { task_id: event.taskId, type: event.type } }),
      );
      research.memory.state.watch('', (change) => {
        const [type, ...rest] = change.key.split('/');
        if (type === 'supervisor' || change.deleted) return;
        const value = change.value as { partial?: boolean; content?: Record<string, unknown> };
        this.#emit(id, {
          event: 'memory',
          data: {
            entry_type: type!,
            entry_id: rest.join('/'),
            version: change.version,
            ...(value.partial ? { partial: true } : {}),
          },
        });
        if (type === 'match' && value.content) this.#emit(id, { event: 'match', data: value.content });
      });
      if (['completed', 'stopped'].includes(research.run.record.state)) void this.#unfinished.delete(id);
      return research;
    });
    opening.catch(() => this.#live.delete(id));
    this.#live.set(id, opening);
    return opening;
  }

  #onState(id: string, record: ResearchRecord): void {
    if (record.state === 'completed' || record.state === 'stopped') void this.#unfinished.delete(id).catch(() => {});
    const data = {
      state: record.state,
      iteration: record.iteration,
      ...(record.question ? { question: record.question } : {}),
    };
    this.#emit(id, { event: 'state', data });
  }

  #onMessage(id: string, message: CoscientistMessage): void {
    const taskId = message.payload.metadata?.task_id;
    if (!taskId) return;
    let times = this.#times.get(id);
    if (!times) this.#times.set(id, (times = new Map()));
    const at = message.header.timestamp;
    const entry = times.get(taskId) ?? {};
    if (message.header.message_type === 'task_assignment') entry.assigned_at ??= at;
    if (message.header.message_type === 'task_result') entry.finished_at = at;
    times.set(taskId, entry);
  }
}
