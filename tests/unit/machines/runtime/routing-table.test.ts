import { describe, expect, it } from 'vitest';
import { RoutingTable } from '../../../../machines/runtime/routing-table.ts';
import type { SystemDefinition } from '../../../../machines/runtime/supervisor-system.ts';
import type { Address } from '../../../../protocol/runtime/envelope-addressing.ts';
import { testSystem } from '../../../support/test-system.ts';

/* The routing table on its own: which children an address goes to, or why it may not go. */

const address = (sender: string, receivers: string | readonly string[], kind = 'note'): Address => ({
  id: 'm1',
  sender,
  receivers,
  kind,
  correlation: undefined,
  expiresAt: undefined,
});

describe('RoutingTable', () => {
  it('refuses a topic the system does not declare, naming it and the system', () => {
    const table = new RoutingTable(testSystem(), undefined);
    expect(table.targetsOf(address('A', 'topic:gossip', 'news'), 'gossip', true)).toEqual({
      code: 'unknown_topic',
      message: 'Topic "gossip" does not exist in test.',
    });
  });

  it('refuses any topic in a system that declares none, instead of failing', () => {
    const { topics: _none, ...system } = testSystem();
    const table = new RoutingTable(system as SystemDefinition, undefined);
    expect(table.targetsOf(address('A', 'topic:news', 'news'), 'news', true)).toMatchObject({ code: 'unknown_topic' });
  });

  it('publishes to every subscriber but the sender', () => {
    const table = new RoutingTable(testSystem(), undefined);
    expect(table.targetsOf(address('A', 'topic:news', 'news'), 'news', true)).toEqual(['B', 'C']);
  });

  it('refuses a list of receivers naming an agent the system does not run, before checking edges', () => {
    const table = new RoutingTable(testSystem(), undefined);
    expect(table.targetsOf(address('A', ['B', 'NOBODY']), undefined, false)).toEqual({
      code: 'unknown_agent',
      message: 'No agent "NOBODY" runs in test.',
    });
  });

  it('delivers a list of receivers once each, to agents only (an external address gets no child)', () => {
    const system = { ...testSystem(), routes: [...testSystem().routes, { from: 'A', to: 'USER', data_type: 'note' }] };
    const table = new RoutingTable(system, undefined);
    expect(table.targetsOf(address('A', ['B', 'USER', 'B']), undefined, false)).toEqual(['B']);
  });

  it('refuses a list of receivers if any edge is missing', () => {
    const table = new RoutingTable(testSystem(), undefined);
    expect(table.targetsOf(address('A', ['B', 'C']), undefined, false)).toMatchObject({
      code: 'unknown_edge',
      message: expect.stringContaining('A -> C : note'),
    });
  });

  it('broadcasts to every agent but the sender, the same list each time', () => {
    const system = { ...testSystem(), routes: [{ from: 'A', to: '*', data_type: 'note' }] };
    const table = new RoutingTable(system, '*');
    const first = table.targetsOf(address('A', '*'), undefined, false);
    expect(first).toEqual(['B', 'C']);
    expect(table.targetsOf(address('A', '*'), undefined, false)).toBe(first);
    expect(table.targetsOf(address('B', '*'), undefined, false)).toMatchObject({ code: 'unknown_edge' });
  });
});
