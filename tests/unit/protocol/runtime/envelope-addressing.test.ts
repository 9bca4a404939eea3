import { describe, expect, it } from 'vitest';
import {
  addressingOf,
  DEFAULT_ADDRESSING,
  type Address,
  type EnvelopeAddressing,
} from '../../../../protocol/runtime/envelope-addressing.ts';
import { PRIORITY_RANGE_1_TO_10 } from '../../../../protocol/runtime/priority-scale.ts';

const blank = (): Address => ({
  id: '',
  sender: '',
  receivers: '',
  kind: '',
  correlation: undefined,
  expiresAt: undefined,
});

const nested: EnvelopeAddressing = {
  id: 'header.message_id',
  sender: 'header.source_agent',
  receivers: 'header.target_agent',
  broadcast: 'broadcast',
  kind: 'header.message_type',
  correlation: 'payload.metadata.task_id',
  priority: { path: 'routing.priority', scale: PRIORITY_RANGE_1_TO_10 },
  expiry: 'routing.expires_at',
};

const message = (overrides: { target?: unknown; expires?: unknown; priority?: unknown } = {}) => ({
  header: {
    message_id: 'm-1',
    source_agent: 'SUPERVISOR',
    target_agent: overrides.target ?? 'GENERATION',
    message_type: 'task',
  },
  payload: { data: {}, metadata: { task_id: 't-9' } },
  routing: { priority: overrides.priority ?? 3, expires_at: overrides.expires },
});

describe('addressingOf', () => {
  it("reads spec 000's fields by default", () => {
    const address = blank();
    const envelope = { message_id: 'a', from_agent: 'SCIENTIST', to_agent: 'NUTRITIONIST', data_type: 'macro_targets' };
    expect(addressingOf().read(envelope, address)).toBeUndefined();
    expect(address).toEqual({
      id: 'a',
      sender: 'SCIENTIST',
      receivers: 'NUTRITIONIST',
      kind: 'macro_targets',
      correlation: undefined,
      expiresAt: undefined,
    });
    expect(addressingOf()).toBe(addressingOf(DEFAULT_ADDRESSING));
    expect(addressingOf().expires).toBe(false);
  });

  it('compiles each declaration once', () => {
    expect(addressingOf(nested)).toBe(addressingOf(nested));
    expect(addressingOf({ ...nested })).not.toBe(addressingOf(nested));
  });

  it('reads nested fields: id, sender, receivers, kind, correlation, priority and expiry', () => {
    const addressing = addressingOf(nested);
    const address = blank();
    const envelope = message({ expires: '2026-01-01T00:00:00Z' });
    expect(addressing.read(envelope, address)).toBeUndefined();
    expect(address).toEqual({
      id: 'm-1',
      sender: 'SUPERVISOR',
      receivers: 'GENERATION',
      kind: 'task',
      correlation: 't-9',
      expiresAt: Date.parse('2026-01-01T00:00:00Z'),
    });
    expect(addressing.priorityOf(envelope)).toBe(1);
    expect(addressing.priorityOf(message({ priority: 10 }))).toBe(4);
    expect(addressing.expires).toBe(true);
    expect(addressing.broadcast).toBe('broadcast');
  });

  it('reads an expiry given in milliseconds, and none when it is absent or null', () => {
    const addressing = addressingOf(nested);
    const address = blank();
    addressing.read(message({ expires: 1_234 }), address);
    expect(address.expiresAt).toBe(1_234);
    addressing.read(message(), address);
    expect(address.expiresAt).toBeUndefined();
    addressing.read(message({ expires: null }), address);
    expect(address.expiresAt).toBeUndefined();
  });

  it('names the expiry field when it cannot be read as a time', () => {
    for (const expires of ['tomorrow', true])
      expect(addressingOf(nested).read(message({ expires }), blank())?.path).toBe('routing.expires_at');
  });

  it('reads an array of receivers as it is', () => {
    const address = blank();
    expect(addressingOf(nested).read(message({ target: ['GENERATION', 'RANKING'] }), address)).toBeUndefined();
    expect(address.receivers).toEqual(['GENERATION', 'RANKING']);
  });

  it('names the field of a missing or mistyped id, sender, receivers or kind', () => {
    const addressing = addressingOf(nested);
    const base = message();
    const cases: [unknown, string][] = [
      [{ ...base, header: { ...base.header, message_id: '' } }, 'header.message_id'],
      [{ ...base, header: { ...base.header, message_id: 7 } }, 'header.message_id'],
      [{ ...base, header: { ...base.header, source_agent: undefined } }, 'header.source_agent'],
      [{ ...base, header: { ...base.header, target_agent: [] } }, 'header.target_agent'],
      [{ ...base, header: { ...base.header, target_agent: ['A', 3] } }, 'header.target_agent'],
      [{ ...base, header: { ...base.header, target_agent: '' } }, 'header.target_agent'],
      [{ ...base, header: { ...base.header, message_type: null } }, 'header.message_type'],
      [{ payload: {} }, 'header.message_id'],
    ];
    for (const [envelope, path] of cases) expect(addressing.read(envelope, blank())?.path).toBe(path);
  });

  it('reads a kind from the first field present, or through a function', () => {
    const byPresence = addressingOf({
      ...DEFAULT_ADDRESSING,
      kind: {
        whenPresent: [
          { path: 'payload.target_message_id', kind: 'cancellation' },
          { path: 'payload.status', kind: 'outcome' },
          { path: 'payload.task_type', kind: 'delegation' },
        ],
      },
    });
    expect(byPresence.kindOf({ payload: { task_type: 'solve' } })).toBe('delegation');
    expect(byPresence.kindOf({ payload: { status: 'success', task_type: 'x' } })).toBe('outcome');
    expect(byPresence.kindOf({ payload: { target_message_id: 'm', status: 'x' } })).toBe('cancellation');
    expect(byPresence.kindOf({ payload: { status: null } })).toBeUndefined();
    expect(byPresence.read({ message_id: 'a', from_agent: 'A', to_agent: 'B', payload: {} }, blank())?.path).toBe(
      'kind',
    );
    const byFunction = addressingOf({
      ...DEFAULT_ADDRESSING,
      kind: (e) => ((e as any).type === 1 ? 'one' : undefined),
    });
    expect(byFunction.kindOf({ type: 1 })).toBe('one');
  });

  it('reads a null correlation as none', () => {
    const addressing = addressingOf({ ...DEFAULT_ADDRESSING, correlation: 'correlation_id' });
    expect(addressing.correlationOf({ correlation_id: null })).toBeUndefined();
    expect(addressing.correlationOf({ correlation_id: 'msg-001' })).toBe('msg-001');
  });

  it('reads the sender and id of anything without throwing (refusals go back to the sender)', () => {
    const addressing = addressingOf(nested);
    for (const raw of [null, 42, 'x', [], { header: 'x' }]) {
      expect(addressing.senderOf(raw)).toBeUndefined();
      expect(addressing.idOf(raw)).toBeUndefined();
      expect(addressing.hasId(raw)).toBe(false);
    }
    expect(addressing.hasId({ header: { message_id: 0 } })).toBe(true);
  });

  it('reads an ack policy only where the system declares acks', () => {
    expect(addressingOf().ackPolicyOf({ acknowledgment: { required: true } })).toBeUndefined();
    const acked = addressingOf({
      ...DEFAULT_ADDRESSING,
      kind: 'message_type',
      ack: { required: 'ack.required', requiredForKinds: ['request'], defaults: { timeoutMs: 10, retries: 2 } },
    });
    expect(acked.ackPolicyOf({ message_type: 'request' })).toEqual({ timeoutMs: 10, retries: 2 });
    expect(acked.ackPolicyOf({ message_type: 'notification' })).toBeUndefined();
    expect(acked.ackPolicyOf({ message_type: 'notification', ack: { required: true } })).toEqual({
      timeoutMs: 10,
      retries: 2,
    });
  });

  it('has no priority where none is declared', () => {
    expect(addressingOf().priorityOf({ priority: 1 })).toBeUndefined();
  });
});
