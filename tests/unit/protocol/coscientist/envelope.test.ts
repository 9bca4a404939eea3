import { describe, expect, it } from 'vitest';
import { COSCIENTIST_ADDRESSING, CoscientistEnvelopeSchema } from '../../../../protocol/coscientist/envelope.ts';
import { addressingOf, type Address } from '../../../../protocol/runtime/envelope-addressing.ts';
import { STANDARD_MESSAGE } from '../../../support/coscientist/spec-examples.ts';
import { issuePaths } from '../nutrition/issues.ts';

const addressing = addressingOf(COSCIENTIST_ADDRESSING);

describe('CoscientistEnvelopeSchema', () => {
  it('parses a message built from the Standard Message Structure and reads its address', () => {
    expect(CoscientistEnvelopeSchema.parse(STANDARD_MESSAGE)).toStrictEqual(STANDARD_MESSAGE);
    const address = {} as Address;
    expect(addressing.read(STANDARD_MESSAGE, address)).toBeUndefined();
    expect(address).toEqual({
      id: STANDARD_MESSAGE.header.message_id,
      sender: 'SUPERVISOR',
      receivers: 'GENERATION',
      kind: 'task',
      correlation: 'task-gen-1',
      expiresAt: Date.parse('2026-03-01T10:00:00Z'),
    });
    expect(addressing.priorityOf(STANDARD_MESSAGE)).toBe(1);
  });

  it('takes "broadcast" as a target, and a message without metadata or expiry', () => {
    const broadcast = {
      ...STANDARD_MESSAGE,
      header: { ...STANDARD_MESSAGE.header, target_agent: 'broadcast' },
      payload: { data: 'plan' },
      routing: { priority: 10 },
    };
    expect(CoscientistEnvelopeSchema.parse(broadcast)).toStrictEqual(broadcast);
    expect(addressing.receiversOf(broadcast)).toBe(addressing.broadcast);
    expect(addressing.correlationOf(broadcast)).toBeUndefined();
    expect(addressing.expiresAtOf(broadcast)).toBeUndefined();
    expect(addressing.priorityOf(broadcast)).toBe(4);
  });

  it('names a priority out of 1-10, an unknown agent and a field the structure does not have', () => {
    const routing = (priority: number) => ({ ...STANDARD_MESSAGE, routing: { priority } });
    expect(issuePaths(CoscientistEnvelopeSchema, routing(0))).toEqual(['routing.priority']);
    expect(issuePaths(CoscientistEnvelopeSchema, routing(11))).toEqual(['routing.priority']);
    const stranger = { ...STANDARD_MESSAGE, header: { ...STANDARD_MESSAGE.header, source_agent: 'INTERN' } };
    expect(issuePaths(CoscientistEnvelopeSchema, stranger)).toEqual(['header.source_agent']);
    const extra = { ...STANDARD_MESSAGE, header: { ...STANDARD_MESSAGE.header, hops: 2 } };
    expect(issuePaths(CoscientistEnvelopeSchema, extra)).toEqual(['header']);
  });
});
