import { ConflictError, NotFoundError, RuntimeError } from '../../protocol/runtime/runtime-error.ts';

/** An outcome, cancellation or child named a delegation the tree never saw. */
export class UnknownDelegationError extends NotFoundError {
  override name = 'UnknownDelegationError';
  constructor(readonly id: string) {
    super(`Delegation ${id} (delegate it first, or check the id the outcome or cancellation names)`);
  }
}

/** A child was asked under a delegation that has already ended. */
export class DelegationEndedError extends ConflictError {
  override name = 'DelegationEndedError';
  constructor(
    readonly id: string,
    readonly outcome: string,
  ) {
    super(
      'delegation_ended',
      `Delegation ${id} already ended (${outcome}), so nothing more can be delegated under it: start the work as a new delegation, or under one still open.`,
    );
  }
}

/** The tree's journal refused a record: what is in memory may be ahead of the disk. */
export class DelegationJournalError extends RuntimeError {
  override name = 'DelegationJournalError';
  constructor(
    readonly partition: string,
    readonly reason: unknown,
  ) {
    super(
      'delegation_journal_failed',
      `The delegation tree ${partition} could not journal a record (${String(reason)}); it takes nothing more: fix the journal, then reopen the tree, which rebuilds it from what was journaled.`,
      503,
    );
  }
}
