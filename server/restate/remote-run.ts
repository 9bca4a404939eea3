import { randomUUID } from 'node:crypto';
import type { EventObject } from 'xstate';
import type { RunEvent, RunSnapshot } from '../run-host/hosted-run.ts';
import type { RunHandle } from '../run-host/run-hosting.ts';
import type { RefusedRecord } from '../../protocol/runtime/refused-record.ts';

/** What a run object's `view` answers: its run actor's snapshot and every envelope of its journal. */
export interface RunView {
  snapshot: RunSnapshot | null;
  messages: unknown[];
}

/** How often a followed run is read again while someone waits on it (a watcher, `until`). */
const FOLLOW_MS = 50;

/**
 * A run hosted on Restate as the API process sees it: `send` posts the event to the run's object
 * at the ingress (`deliver`, under the envelope's id as idempotency key, so a send repeated after
 * a lost connection or a restart is taken once) and resolves what waits on the envelope once
 * Restate answered (the run's state, its journal included, is committed then). While a caller
 * watches it or waits for a state, the run is read again (`view`) so that what its brains'
 * answers did later is seen too.
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
  private sending: Promise<void> = Promise.resolve();
  private readonly sent = new Map<string, Promise<void>>();

  constructor(
    private readonly options: {
      ingressUrl: string;
      system: string;
      partition: string;
      idOf: (envelope: unknown) => string | undefined;
      /** Each new state seen (read, not followed: it makes no request of its own). */
      onState?: (snapshot: RunSnapshot) => void;
    },
  ) {
    this.partition = options.partition;
  }

  send<E extends EventObject>(event: E): void {
    const envelope = (event as { envelope?: unknown }).envelope;
    const id = envelope === undefined ? undefined : this.options.idOf(envelope);
    const key = id ?? `${this.partition}:${event.type}:${randomUUID()}`;
    // One run's events reach its object in the order they were sent.
    this.sending = this.sending
      .then(() => this.deliver(event, key))
      .catch((error: unknown) => console.error(`Run ${this.partition}:`, error));
    if (id !== undefined) this.sent.set(id, this.sending);
  }

  snapshot(): RunSnapshot {
    return (this.current.snapshot ?? { value: 'idle', context: {}, status: 'active' }) as RunSnapshot;
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

  until(predicate: (snapshot: RunSnapshot) => boolean): Promise<RunSnapshot> {
    if (this.current.snapshot && predicate(this.snapshot())) return Promise.resolve(this.snapshot());
    return new Promise((resolve) => {
      const check = () => {
        if (!this.current.snapshot || !predicate(this.snapshot())) return;
        this.waiters.delete(check);
        resolve(this.snapshot());
      };
      this.waiters.add(check);
      this.follow();
    });
  }

  /** Restate commits a handler's journal with its state: once the sends are answered, nothing waits. */
  quiescent(): Promise<void> {
    return this.sending;
  }

  /** Refusals are not journaled on Restate: a refused envelope resolves like a journaled one. */
  async journaled(messageId: string): Promise<RefusedRecord | undefined> {
    await (this.sent.get(messageId) ?? this.sending);
    return undefined;
  }

  /** Reads the run's object again and tells watchers and waiters what changed. */
  async refresh(): Promise<void> {
    const response = await fetch(this.url('view'), this.post(null));
    if (!response.ok) throw new Error(`Restate could not read run ${this.partition} (${response.status}).`);
    const view = (await response.json()) as RunView | null;
    if (view) this.take(view);
  }

  /** Stops following the run. */
  stop(): void {
    clearTimeout(this.following);
    this.following = undefined;
    this.watchers.clear();
  }

  private async deliver(event: EventObject, key: string): Promise<void> {
    for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
      const response = await fetch(this.url('deliver'), this.post(event, key)).catch(() => undefined);
      if (response?.ok) return this.refresh();
      if (response && response.status < 500)
        throw new Error(
          `Restate refused an event for run ${this.partition} (${response.status}): ${await response.text()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private take(view: RunView): void {
    const before = this.current;
    this.current = view;
    const from = String(before.snapshot?.value ?? 'idle');
    const to = String(view.snapshot?.value ?? 'idle');
    for (const data of view.messages.slice(before.messages.length)) this.notify({ type: 'message', data });
    if (from !== to) {
      this.notify({ type: 'state', data: { from, to, state: to } });
      this.options.onState?.(this.snapshot());
    }
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Reads the run again every FOLLOW_MS while anyone watches or waits. */
  private follow(): void {
    if (this.following) return;
    this.following = setTimeout(() => {
      this.following = undefined;
      void this.refresh()
        .catch(() => undefined)
        .finally(() => {
          if (this.watchers.size > 0 || this.waiters.size > 0) this.follow();
        });
    }, FOLLOW_MS);
  }

  private notify(event: RunEvent): void {
    for (const watcher of this.watchers) watcher(event);
  }

  private url(handler: string): string {
    return `${this.options.ingressUrl}/${this.options.system}-host/${encodeURIComponent(this.partition)}/${handler}`;
  }

  private post(body: unknown, idempotencyKey?: string): RequestInit {
    return {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify(body),
    };
  }
}
