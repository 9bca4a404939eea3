import { describe, expect, it } from 'vitest';
import { isRefusal } from '../../../../machines/runtime/supervisor-admission-request.ts';
import { SupervisorLedger } from '../../../../machines/runtime/supervisor-ledger.ts';
import type { SystemDefinition } from '../../../../machines/runtime/supervisor-system.ts';
import { envelope, testSystem } from '../../../support/test-system.ts';

/* The supervisor's bookkeeping, through its own API: what is settled, and what a failed append revokes. */

/** Admits a plain send A -> B; returns its ticket and id. */
function admitNote(ledger: SupervisorLedger) {
  const sent = envelope();
  const admission = ledger.admit({ kind: 'direct', envelope: sent });
  if (isRefusal(admission)) throw new Error(admission.error.message);
  return { ticket: admission.ticket, id: sent.message_id };
}

const pipelined = (): SystemDefinition => ({ ...testSystem(), delivery: 'pipelined' });

describe('SupervisorLedger', () => {
  it('is idle only once every admitted envelope is settled and no event of an agent is held', () => {
    const ledger = new SupervisorLedger(testSystem());
    expect(ledger.idle()).toBe(true);
    const { ticket } = admitNote(ledger);
    expect(ledger.idle()).toBe(false);
    expect(ledger.settle([ticket], []).due.map((p) => p.ticket)).toEqual([ticket]);
    expect(ledger.idle()).toBe(true);
    ledger.hold('B', { type: 'supervisor.send' });
    expect(ledger.idle()).toBe(false);
  });

  it('revokes a failed append only where it was delivered early (pipelined delivery)', () => {
    const durable = new SupervisorLedger(testSystem());
    const early = new SupervisorLedger(pipelined());
    const failures = [durable, early].map((ledger) => {
      const { ticket, id } = admitNote(ledger);
      const { due } = ledger.settle([], [{ ticket, message: 'disk full' }]);
      expect(due.map((p) => p.settled)).toEqual([{ ok: false, message: 'disk full' }]);
      return ledger.isRevoked(id);
    });
    expect(failures).toEqual([false, true]);
  });

  it('lets the id of a failed append be admitted again', () => {
    const ledger = new SupervisorLedger(testSystem());
    const sent = envelope();
    const first = ledger.admit({ kind: 'direct', envelope: sent });
    if (isRefusal(first)) throw new Error(first.error.message);
    ledger.settle([], [{ ticket: first.ticket, message: 'disk full' }]);
    expect(isRefusal(ledger.admit({ kind: 'direct', envelope: sent }))).toBe(false);
    expect(isRefusal(ledger.admit({ kind: 'direct', envelope: sent }))).toBe(true);
  });
});
