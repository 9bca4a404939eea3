import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { createSupervisorMachine, type SupervisorEvent } from '../../../../machines/runtime/supervisor.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { testSystem } from '../../../support/test-system.ts';

/*
 * The supervisor's statechart as the visualizer draws it: only pipelined delivery holds what an
 * agent produces (or refuses a report of revoked work), so only its machine has those transitions.
 */

const machineOf = (delivery: 'durable' | 'pipelined' | undefined) =>
  createSupervisorMachine(
    { ...testSystem(), ...(delivery ? { delivery } : {}) },
    { journal: createMemoryJournal<RoutedRecord>() },
  );

const guardsOf = (machine: ReturnType<typeof machineOf>, event: SupervisorEvent['type']) =>
  machine.root.on[event]!.map((t) => (typeof t.guard === 'string' ? t.guard : undefined));

const ENVELOPE_EVENTS: SupervisorEvent['type'][] = [
  'supervisor.send',
  'supervisor.publish',
  'supervisor.request',
  'supervisor.respond',
];

describe('supervisor transitions', () => {
  it('is named supervisor whatever the system and its delivery: its name in the visualizer and in inspection', () => {
    for (const delivery of [undefined, 'durable', 'pipelined'] as const)
      expect(machineOf(delivery).id).toBe('supervisor');
  });

  for (const delivery of [undefined, 'durable'] as const) {
    it(`admits envelopes and reports with one unguarded transition each under ${delivery ?? 'default'} delivery`, () => {
      const machine = machineOf(delivery);
      for (const event of ENVELOPE_EVENTS) expect(guardsOf(machine, event)).toEqual([undefined]);
      expect(guardsOf(machine, 'agent.report')).toEqual([undefined]);
    });
  }

  it('holds what a waiting sender sends, and refuses reports of revoked work, under pipelined delivery', () => {
    const machine = machineOf('pipelined');
    for (const event of ENVELOPE_EVENTS) expect(guardsOf(machine, event)).toEqual(['senderWaits', undefined]);
    expect(guardsOf(machine, 'agent.report')).toEqual(['senderWaits', 'reportsRevokedWork', undefined]);
  });
});
