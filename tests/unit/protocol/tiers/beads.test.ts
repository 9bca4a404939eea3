import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import { openSharedState } from '../../../../actors/runtime/shared-state/open-shared-state.ts';
import {
  BEADS_ROLE_OF,
  BEADS_ROLES,
  BEADS_SCHEMA,
  BEADS_SCOPES,
  BEADS_TABLE,
  DEDUP_ROLE,
  isReadableRef,
  SEEN_MESSAGES_SCHEMA,
} from '../../../../protocol/tiers/beads.ts';

describe('BEADS_SCHEMA', () => {
  it('is spec 002’s write-permission table, cell by cell', () => {
    expect(BEADS_TABLE).toEqual({
      task: ['R', 'RW', 'R', 'R'],
      routing: ['R', 'R', 'RW', 'R'],
      execution: ['R', 'R', 'R', 'RW'],
      system: ['RW', 'R', 'R', 'R'],
      history: ['RW', 'R', 'R', 'R'],
    });
    for (const [namespace, row] of Object.entries(BEADS_TABLE)) {
      for (const [i, role] of BEADS_ROLES.entries()) {
        expect(BEADS_SCHEMA.namespaces[namespace]!.access[role]).toBe(row[i]);
      }
    }
  });

  it('keeps task, routing and execution per task, system and history per user', () => {
    expect(BEADS_SCOPES).toEqual({ task: 'task', routing: 'task', execution: 'task', system: 'user', history: 'user' });
  });

  it('maps every tier to its column', () => {
    expect(Object.values(BEADS_ROLE_OF).sort()).toEqual([...BEADS_ROLES].sort());
  });

  it('lets the dedup service, and only it, write seen messages, outside the table', async () => {
    const journal = createMemoryJournal();
    const seen = openSharedState({ journal, schema: SEEN_MESSAGES_SCHEMA, scopes: { seen: 'tiers' } });
    const key = 'system/seen-messages/ROUTING_DISPATCHER/msg-001';
    expect((await seen.write(DEDUP_ROLE, [{ key, value: { status: 'success' } }])).ok).toBe(true);
    for (const role of BEADS_ROLES) await expect(seen.write(role, [{ key, value: 1 }])).rejects.toThrow(role);
    // The table's system namespace is unchanged by it: only the Monitor writes there.
    const beads = openSharedState({ journal, schema: BEADS_SCHEMA, scopes: { user: 'ada' } });
    await expect(beads.write(DEDUP_ROLE, [{ key: 'system/bottlenecks', value: [] }])).rejects.toThrow('system');
    expect(await beads.get(key)).toBeUndefined();
  });
});

describe('isReadableRef', () => {
  it('accepts keys in a namespace the role reads, with or without the beads: prefix', () => {
    for (const role of BEADS_ROLES) {
      expect(isReadableRef('beads:task/constraints', role)).toBe(true);
      expect(isReadableRef('execution/outputs/msg-002', role)).toBe(true);
    }
  });

  it('refuses keys without a namespace, of an unknown one, or empty names', () => {
    for (const ref of ['beads:problem-statement', 'beads:secrets/x', 'task/', 'beads:', '/task']) {
      expect(isReadableRef(ref, 'FLEET'), ref).toBe(false);
    }
  });
});
