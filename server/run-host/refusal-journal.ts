import type { SupervisorRejectedEvent } from '../../machines/runtime/supervisor-events.ts';
import type { EnvelopeAddressing } from '../../protocol/runtime/envelope-addressing.ts';
import { DEFAULT_ADDRESSING } from '../../protocol/runtime/envelope-addressing.ts';
import { errorMessage } from '../../protocol/runtime/error-message.ts';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { isAdmissionRefusal, refusedRecordOf, type RefusedRecord } from '../../protocol/runtime/refused-record.ts';

/** How many refusals a run remembers by message id (what `journaled(id)` answers with). */
const REMEMBERED = 256;

export interface RefusalJournalOptions {
  /** Appends a record to the run's journal partition; resolves once it is durable. */
  append: (record: RefusedRecord) => Promise<unknown>;
  addressing?: EnvelopeAddressing | undefined;
  idOf: (envelope: unknown) => string | undefined;
  /** Told when an append settles (the run checks what waited for the journal). */
  settled: () => void;
  warn?: (message: string) => void;
}

const isEnvelope = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A run's refusals, journaled: each envelope the supervisor refuses at admission (not a duplicate,
 * not a journal failure) is appended as a `refused` record with its code and field, and remembered
 * by id until it is routed after all, so the caller who sent it hears the refusal once it is
 * durable. The supervisor's routing is untouched: this listens to its `supervisor.rejected`.
 *
 * @example
 * const refusals = new RefusalJournal({ append: (r) => journal.append(partition, r), idOf, settled });
 * supervisor.on('supervisor.rejected', (event) => refusals.refused(event));
 */
export class RefusalJournal {
  readonly #byId = new Map<string, { record: RefusedRecord; durable: Promise<void> }>();
  #writing = 0;

  constructor(private readonly options: RefusalJournalOptions) {}

  /** Whether a refused record is still on its way to the disk. */
  get writing(): boolean {
    return this.#writing > 0;
  }

  /** Journals a refusal of admission; others (a duplicate, a journal failure, a throttle) are not. */
  refused(event: SupervisorRejectedEvent): void {
    if (!isEnvelope(event.envelope) || !isAdmissionRefusal(event.error.code)) return;
    const record = refusedRecordOf(event.envelope, event.error, this.options.addressing ?? DEFAULT_ADDRESSING);
    this.#writing += 1;
    const durable = this.options.append(record).then(() => undefined);
    void durable
      .catch((error: unknown) =>
        (this.options.warn ?? console.warn)(`A refused envelope could not be journaled: ${errorMessage(error)}`),
      )
      .finally(() => {
        this.#writing -= 1;
        this.options.settled();
      });
    const id = this.options.idOf(event.envelope);
    if (id === undefined) return;
    this.#byId.delete(id);
    this.#byId.set(id, { record, durable });
    if (this.#byId.size > REMEMBERED) this.#byId.delete(this.#byId.keys().next().value!);
  }

  /** An envelope routed after all (sent again, fixed): its earlier refusal no longer answers for it. */
  routed(envelope: unknown): void {
    if (this.#byId.size === 0) return;
    const id = this.options.idOf(envelope);
    if (id !== undefined) this.#byId.delete(id);
  }

  /**
   * The refused record of `messageId` once it is durable, if the run refused it last. A refusal
   * whose append failed is never answered as one (nothing shows it): it throws 503
   * `journal_unavailable`, and the sender sends the envelope again.
   */
  async of(messageId: string): Promise<RefusedRecord | undefined> {
    const refused = this.#byId.get(messageId);
    if (!refused) return undefined;
    try {
      await refused.durable;
    } catch (error) {
      throw new RuntimeError(
        'journal_unavailable',
        `The refusal of ${messageId} could not be journaled (${errorMessage(error)}); send the message again.`,
        503,
      );
    }
    return refused.record;
  }
}
