import { describe, expect, it } from 'vitest';
import { ORG_ADDRESSING, OrgEnvelopeSchema } from '../../../../protocol/org/envelope.ts';
import { addressingOf } from '../../../../protocol/runtime/envelope-addressing.ts';
import {
  ESCALATION_MESSAGE,
  V2_ARRAY_DESTINATION,
  V2_SCHEMA_EXAMPLE,
  V2_SINGLE_DESTINATION,
} from '../../../support/org/spec-examples.ts';
import { issuePaths } from '../nutrition/issues.ts';

const addressing = addressingOf(ORG_ADDRESSING);

describe('OrgEnvelopeSchema', () => {
  it('parses the v2.0 example sent to one agent and reads its address', () => {
    expect(OrgEnvelopeSchema.parse(V2_SINGLE_DESTINATION)).toStrictEqual(V2_SINGLE_DESTINATION);
    expect(addressing.idOf(V2_SINGLE_DESTINATION)).toBe(V2_SINGLE_DESTINATION.message_id);
    expect(addressing.senderOf(V2_SINGLE_DESTINATION)).toBe('product');
    expect(addressing.receiversOf(V2_SINGLE_DESTINATION)).toBe('backend');
    expect(addressing.kindOf(V2_SINGLE_DESTINATION)).toBe('request');
    expect(addressing.correlationOf(V2_SINGLE_DESTINATION)).toBe('message-id-1');
    expect(addressing.priorityOf(V2_SINGLE_DESTINATION)).toBe(1);
    expect(addressing.ackPolicyOf(V2_SINGLE_DESTINATION)).toEqual({ timeoutMs: 30000, retries: 3 });
  });

  it('parses the v2.0 example sent to an array of agents', () => {
    expect(OrgEnvelopeSchema.parse(V2_ARRAY_DESTINATION)).toStrictEqual(V2_ARRAY_DESTINATION);
    expect(addressing.receiversOf(V2_ARRAY_DESTINATION)).toEqual(['frontend', 'backend']);
    expect(addressing.kindOf(V2_ARRAY_DESTINATION)).toBe('notification');
    // A notification requires an ack only when it says so; this one does.
    expect(addressing.ackPolicyOf(V2_ARRAY_DESTINATION)).toEqual({ timeoutMs: 30000, retries: 3 });
    const { acknowledgment: _, ...unacked } = V2_ARRAY_DESTINATION;
    expect(addressing.ackPolicyOf(unacked)).toBeUndefined();
  });

  it('requires an ack for every request, even one that says it does not', () => {
    const { acknowledgment: _, ...bare } = V2_SINGLE_DESTINATION;
    expect(OrgEnvelopeSchema.parse(bare)).toStrictEqual(bare);
    expect(addressing.ackPolicyOf(bare)).toEqual({ timeoutMs: 30000, retries: 3 });
    const declined = {
      ...V2_SINGLE_DESTINATION,
      acknowledgment: { required: false, timeout_ms: 5000, retry_count: 1 },
    };
    expect(addressing.ackPolicyOf(declined)).toEqual({ timeoutMs: 5000, retries: 1 });
  });

  it('parses the escalation example and maps each priority label onto the runtime scale', () => {
    expect(OrgEnvelopeSchema.parse(ESCALATION_MESSAGE)).toStrictEqual(ESCALATION_MESSAGE);
    expect(addressing.kindOf(ESCALATION_MESSAGE)).toBe('escalation');
    expect(addressing.receiversOf(ESCALATION_MESSAGE)).toBe('chief-orchestration');
    const priorities = ['critical', 'high', 'medium', 'low'].map((priority) =>
      addressing.priorityOf({ ...ESCALATION_MESSAGE, priority }),
    );
    expect(priorities).toEqual([0, 1, 2, 3]);
  });

  it('refuses the schema as written: its values are the names of types', () => {
    const paths = issuePaths(OrgEnvelopeSchema, V2_SCHEMA_EXAMPLE);
    expect(paths).toContain('message_type');
  });

  it('checks a payload against its message type and is closed where the spec is', () => {
    expect(issuePaths(OrgEnvelopeSchema, { ...ESCALATION_MESSAGE, message_type: 'request' })).toContain(
      'payload.task_id',
    );
    expect(issuePaths(OrgEnvelopeSchema, { ...V2_SINGLE_DESTINATION, extra: 1 })).toEqual(['']);
    expect(issuePaths(OrgEnvelopeSchema, { ...V2_SINGLE_DESTINATION, destination_agent: [] })).toEqual([
      'destination_agent',
    ]);
    expect(issuePaths(OrgEnvelopeSchema, { ...V2_SINGLE_DESTINATION, priority: 'urgent' })).toEqual(['priority']);
  });
});
