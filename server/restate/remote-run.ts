import { randomUUID } from 'node:crypto';
import type { EventObject } from 'xstate';
import type { RunEvent, RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHandle } from '../run-host/run-hosting.ts';
import type { RefusedRecord } from '../../protocol/runtime/refused-record.ts';
import { postToIngress, type IngressRetry } from './ingress-post.ts';

/** What a run object's `view` answers: its run actor's snapshot and every envelope of its journal. */
export interface RunView {
  snapshot: RunSnapshot | null;
  messages: unknown[];
}

/** How often a run is read again while someone watches it or waits on it. */
const FOLLOW_MS = 50;
/** How often a run its host tracks (a working run) is read at most and at least, backing off while it does not change. */
const TRACK_MS = { min: 100, max: 1_000 };

export interface RemoteRunOptions {
  ingressUrl: string;
  system: string;
  partition: string;
  idOf: (envelope: unknown) => string | undefined;
  /** The snapshot when first read, and each time its state or journal changed, however it was read. */
  onState?: (snapshot: RunSnapshot) => void;
  retry?: IngressRetry;
}

/**
 * A run hosted on Restate as the API process sees it: `send` posts the event to the run's object
 * at the ingress (`deliver`, under the envelope's id as idempotency key, so a send repeated after
 * a lost connection or a restart is taken once) and `journaled` resolves once Restate answered
 * (the run's state, its journal included, is committed then); it rejects when Restate refused the
 * event (502) or did not answer within its bounded tries (503 with `Retry-After`), and so does an
 * `until` waiting on that send. While a caller watches it or waits for a state, or its host
 * tracks it (`track`), the run is read again (`view`) so that what its brains' answers did later
 * is seen too.
 *
 * @example
 * const run = new RemoteRun({ ingressUrl, system: 'nutrition', partition, idOf });
 * run.send({ type: 'pipeline.start', envelope });
 * await run.journaled(envelope.message_id);
 */
export class RemoteRun implements RunHandle {
  readonly partition: string;
  private current: RunView = { snapshot: null, messages: [] };
  private readonly watchers = new Set<(event: RunEvent) => void>();
  private readonly waiters = new Set<() => void>();
  private following: NodeJS.Timeout | undefined;
  private tracked = false;
  private trackMs = TRACK_MS.min;
  /** The sends in order; never rejects (each send's own outcome is in `last` and `sent`). */
  private sending: Promise<void> = Promise.resolve();
  /** The last send's outcome. */
  private last: Promise<void> = Promise.resolve();
  /** Sends not answered yet, by envelope id. */
  private readonly sent = new Map<string, Promise<void>>();
  private stopped = false;
  private reading: Promise<void> | undefined;
  /** When the last read answered (`performance.now()`). */
  private readAt = -Infinity;

  constructor(private readonly options: RemoteRunOptions) {
    this.partition = options.partition;
  }

  send<E extends EventObject>(event: E): void {
    const envelope = (event as { envelope?: unknown }).envelope;
    const id = envelope === undefined ? undefined : this.options.idOf(envelope);
    const key = id ?? `${this.partition}:${event.type}:${randomUUID()}`;
    // One run's events reach its object in the order they were sent.
    const delivery = this.sending.then(() => this.deliver(event, key));
    this.last = delivery;
    this.sending = delivery.catch((error: unknown) =>
      console.error(`Run ${this.partition}: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (id !== undefined) {
      this.sent.set(id, delivery);
      void this.sending.then(() => this.sent.get(id) === delivery && this.sent.delete(id));
    }
  }

  snapshot(): RunSnapshot {
    return (this.current.snapshot ?? { value: 'idle', context: {}, status: 'active' }) as RunSnapshot;
  }

  /** Whether the run's object has been read with a state (it took an event). */
  get known(): boolean {
    return this.current.snapshot !== null;
  }

  /** Every envelope of the run's journal as last read. */
  messages(): unknown[] {
    return this.current.messages;
  }

  watch(listener: (event: RunEvent) => void): () => void {
    this.watchers.add(listener);
    this.follow();
    return () => this.watchers.delete(listener);
  }

  /**
   * Rejects when the send made last before it fails (what it waits for would then never come),
   * or with `signal`'s reason once it is aborted (nobody waits: the run is no longer read for it).
   */
  until(predicate: (snapshot: RunSnapshot) => boolean, signal?: AbortSignal): Promise<RunSnapshot> {
    if (this.current.snapshot && predicate(this.snapshot())) return Promise.resolve(this.snapshot());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const give = (settle: () => void) => {
        if (!this.waiters.delete(check)) return;
        signal?.removeEventListener('abort', aborted);
        settle();
      };
      const check = () => {
        if (this.current.snapshot && predicate(this.snapshot())) give(() => resolve(this.snapshot()));
      };
      const aborted = () => give(() => reject(signal!.reason));
      this.waiters.add(check);
      signal?.addEventListener('abort', aborted, { once: true });
      this.last.catch((error: unknown) => give(() => reject(error)));
      this.follow();
    });
  }

  /** Restate commits a handler's journal with its state: once the sends are answered, nothing waits. */
  quiescent(): Promise<void> {
    return this.sending;
  }

  /** Resolves once Restate took the last send (its state committed); rejects as that send failed. */
  delivered(): Promise<void> {
    return this.last;
  }

  /** Refusals are not journaled on Restate: resolves once Restate took the envelope, rejects as its send failed. */
  async journaled(messageId: string): Promise<RefusedRecord | undefined> {
    await (this.sent.get(messageId) ?? this.last);
    return undefined;
  }

  /**
   * Reads the run's object again and tells watchers and waiters what changed. Callers that ask
   * while a read is under way share it; with `maxAgeMs`, a read finished that recently stands.
   */
  refresh(maxAgeMs = 0): Promise<void> {
    if (maxAgeMs > 0 && performance.now() - this.readAt < maxAgeMs) return Promise.resolve();
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** Its host reads it on its own too (a working run: its changes are heard though nobody watches). */
  track(on: boolean): void {
    this.tracked = on;
    this.trackMs = TRACK_MS.min;
    if (on) this.follow();
  }

  /** Stops following the run. */
  stop(): void {
    this.stopped = true;
    this.tracked = false;
    clearTimeout(this.following);
    this.following = undefined;
    this.watchers.clear();
  }

  private async deliver(event: EventObject, key: string): Promise<void> {
    await postToIngress(this.url('deliver'), event, key, this.options.retry);
    // A read of its own: one under way may have begun before Restate committed this event.
    await this.read().catch(() => undefined);
  }

  private async read(): Promise<void> {
    const response = await postToIngress(this.url('view'), null, undefined, this.options.retry);
    const view = (await response.json()) as RunView | null;
    this.readAt = performance.now();
    if (view) this.take(view);
  }

  private take(view: RunView): void {
    const before = this.current;
    this.current = view;
    const from = String(before.snapshot?.value ?? 'idle');
    const to = String(view.snapshot?.value ?? 'idle');
    const added = view.messages.slice(before.messages.length);
    for (const data of added) this.notify({ type: 'message', data });
    if (from !== to) this.notify({ type: 'state', data: { from, to, state: to } });
    if (from !== to || added.length > 0 || before.snapshot === null) {
      this.trackMs = TRACK_MS.min;
      this.options.onState?.(this.snapshot());
    }
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Reads the run again while anyone watches or waits (every FOLLOW_MS) or its host tracks it (backing off). */
  private follow(): void {
    if (this.following || this.stopped) return;
    const waited = this.watchers.size > 0 || this.waiters.size > 0;
    const delay = waited ? FOLLOW_MS : this.trackMs;
    this.following = setTimeout(() => {
      this.following = undefined;
      if (!waited) this.trackMs = Math.min(this.trackMs * 2, TRACK_MS.max);
      void this.refresh()
        .catch(() => undefined)
        .finally(() => {
          if (this.watchers.size > 0 || this.waiters.size > 0 || this.tracked) this.follow();
        });
    }, delay);
  }

  private notify(event: RunEvent): void {
    for (const watcher of this.watchers) watcher(event);
  }

  private url(handler: string): string {
    return `${this.options.ingressUrl}/${this.options.system}-host/${encodeURIComponent(this.partition)}/${handler}`;
  }
}
