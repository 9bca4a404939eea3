import { describe, expect, it } from 'vitest';
import { orgMessage, type OrgMessageSpec } from '../../../../actors/org/org-envelope.ts';
import { OpenRequests } from '../../../../actors/org/open-requests.ts';
import type { JournalRecord } from '../../../../protocol/runtime/ack-record.ts';

const base = { prdId: 'p-1', sprintId: 's', at: Date.parse('2026-03-02T09:00:00Z'), priority: 'medium' } as const;
const msg = (spec: Omit<OrgMessageSpec, 'prdId' | 'sprintId' | 'at' | 'priority'>) => orgMessage({ ...base, ...spec });
const request = msg({
  from: 'product',
  to: ['backend', 'sdte'],
  type: 'request',
  payload: { task_id: 't', content: {} },
  seed: ['req'],
});
const answer = (from: 'backend' | 'sdte' | 'frontend', related: string, seed: string) =>
  msg({
    from,
    to: 'product',
    type: 'response',
    payload: { task_id: 't', content: {} },
    related: [related],
    seed: [seed],
  });
const routed = (envelope: unknown): JournalRecord => ({ kind: 'direct', envelope }) as JournalRecord;

describe('open requests (a response names an open request sent to its sender)', () => {
  it('takes one answer per receiver of an open request and refuses the rest as unknown_correlation', () => {
    const requests = new OpenRequests();
    requests.load('p-1', [routed(request)]);
    expect(requests.admit(answer('backend', request.message_id, 'b1'))).toBeUndefined();
    expect(requests.admit(answer('backend', request.message_id, 'b2'))?.code).toBe('unknown_correlation');
    expect(requests.admit(answer('frontend', request.message_id, 'f1'))?.code).toBe('unknown_correlation');
    expect(requests.admit(answer('sdte', 'no-such-request', 's0'))?.message).toMatch(
      /related_messages\[0\].*no open request to sdte/,
    );
    expect(requests.admit(answer('sdte', request.message_id, 's1'))).toBeUndefined();
    expect(requests.check(answer('sdte', request.message_id, 's2'))?.code).toBe('unknown_correlation');
  });

  it('knows what the journal answered, lets a journaled response be handed over again, and checks no project it did not load', () => {
    const first = answer('backend', request.message_id, 'b1');
    const requests = new OpenRequests();
    requests.load('p-1', [routed(request), routed(first)]);
    expect(requests.admit(answer('backend', request.message_id, 'b2'))?.code).toBe('unknown_correlation');
    expect(requests.admit(first)).toBeUndefined();
    expect(requests.admit(answer('sdte', request.message_id, 's1'))).toBeUndefined();
    requests.forget('p-1');
    expect(requests.admit(answer('sdte', 'anything', 's2'))).toBeUndefined();
  });
});
