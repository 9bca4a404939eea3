import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addressingOf } from '../../../../protocol/runtime/envelope-addressing.ts';
import { compileVersionRule } from '../../../../protocol/runtime/version-rule.ts';
import { TIERS_ADDRESSING, TIERS_VERSION_RULE, TiersEnvelopeSchema } from '../../../../protocol/tiers/envelope.ts';
import { ClarificationPayloadSchema, OutcomePayloadSchema } from '../../../../protocol/tiers/payloads.ts';
import {
  MSG_001,
  MSG_002,
  MSG_003,
  MSG_AGG_001,
  MSG_CANCEL_001,
  NEEDS_CLARIFICATION_PAYLOAD,
} from '../../../support/tiers/spec-examples.ts';
import { issuePaths, issuesOf } from '../nutrition/issues.ts';

const SPEC = new URL('../../../../../shared/seeds/002_41aa6f9ab341b431.txt', import.meta.url);
const addressing = addressingOf(TIERS_ADDRESSING);

describe('TiersEnvelopeSchema', () => {
  it.skipIf(!existsSync(SPEC))('holds the JSON examples exactly as the spec writes them', () => {
    const blocks = [...readFileSync(SPEC, 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks).toEqual([MSG_001, MSG_002, MSG_CANCEL_001, MSG_003, MSG_AGG_001, NEEDS_CLARIFICATION_PAYLOAD]);
  });

  it.each([
    ['msg-001', MSG_001, 'delegation', 'ABSTRACT_ARCHITECT', 'ROUTING_DISPATCHER', undefined],
    ['msg-002', MSG_002, 'delegation', 'ROUTING_DISPATCHER', 'SPECIALIZED_FLEET', 'msg-001'],
    ['msg-cancel-001', MSG_CANCEL_001, 'cancellation', 'ABSTRACT_ARCHITECT', 'ROUTING_DISPATCHER', undefined],
    ['msg-003', MSG_003, 'outcome', 'SPECIALIZED_FLEET', 'ROUTING_DISPATCHER', 'msg-002'],
    ['msg-agg-001', MSG_AGG_001, 'outcome', 'ROUTING_DISPATCHER', 'ABSTRACT_ARCHITECT', 'msg-001'],
  ] as const)('parses %s as written and reads its address', (id, example, kind, sender, receiver, correlation) => {
    expect(TiersEnvelopeSchema.parse(example)).toStrictEqual(example);
    expect(addressing.idOf(example)).toBe(id);
    expect(addressing.kindOf(example)).toBe(kind);
    expect(addressing.senderOf(example)).toBe(sender);
    expect(addressing.receiversOf(example)).toBe(receiver);
    expect(addressing.correlationOf(example)).toBe(correlation);
    expect(compileVersionRule(TIERS_VERSION_RULE)(example)).toBeUndefined();
  });

  it("reads a delegation's priority as the runtime's own 0..4", () => {
    expect(addressing.priorityOf(MSG_001)).toBe(1);
    expect(addressing.priorityOf({ ...MSG_001, payload: { ...MSG_001.payload, priority: 4 } })).toBe(4);
  });

  it('parses the needs_clarification payload as written, as an outcome', () => {
    expect(ClarificationPayloadSchema.parse(NEEDS_CLARIFICATION_PAYLOAD)).toStrictEqual(NEEDS_CLARIFICATION_PAYLOAD);
    const envelope = { ...MSG_003, id: 'msg-q-1', payload: NEEDS_CLARIFICATION_PAYLOAD };
    expect(TiersEnvelopeSchema.parse(envelope)).toStrictEqual(envelope);
    expect(addressing.kindOf(envelope)).toBe('outcome');
    // Only the clarification may leave the metrics out: any other outcome needs them.
    expect(issuePaths(OutcomePayloadSchema, NEEDS_CLARIFICATION_PAYLOAD)).toContain('confidence');
    const partial = { ...NEEDS_CLARIFICATION_PAYLOAD, status: 'partial' };
    expect(issuePaths(TiersEnvelopeSchema, { ...MSG_003, payload: partial })).toContain('payload.confidence');
  });

  it('keeps the fields of a newer minor version, at the top and in the payload', () => {
    const newer = { ...MSG_001, version: '1.3.0', trace_id: 't-1', payload: { ...MSG_001.payload, budget_usd: 3 } };
    expect(TiersEnvelopeSchema.parse(newer)).toStrictEqual(newer);
  });

  it('names the payload field that is wrong, in the schema of its kind', () => {
    const bad = { ...MSG_003, payload: { ...MSG_003.payload, confidence: 1.5 } };
    expect(issuePaths(TiersEnvelopeSchema, bad)).toEqual(['payload.confidence']);
    const cancel = { ...MSG_CANCEL_001, payload: { ...MSG_CANCEL_001.payload, cascade: 'yes' } };
    expect(issuePaths(TiersEnvelopeSchema, cancel)).toEqual(['payload.cascade']);
    const delegation = { ...MSG_001, payload: { ...MSG_001.payload, priority: 5 } };
    expect(issuePaths(TiersEnvelopeSchema, delegation)).toEqual(['payload.priority']);
  });

  it('refuses a payload of no known kind, saying what each kind has', () => {
    const issues = issuesOf(TiersEnvelopeSchema, { ...MSG_001, payload: { objective: 'x' } });
    expect(issues).toEqual([{ path: 'payload', message: expect.stringContaining('task_type') }]);
  });

  it('holds an artifact to exactly one of content_ref and inline_content, inline under 1 KB', () => {
    const artifact = MSG_003.payload.artifacts[1]!;
    const withArtifact = (a: object) => ({ ...MSG_003, payload: { ...MSG_003.payload, artifacts: [a] } });
    expect(issuePaths(TiersEnvelopeSchema, withArtifact({ ...artifact, content_ref: 'beads:x' }))).toEqual([
      'payload.artifacts.0.inline_content',
    ]);
    expect(issuePaths(TiersEnvelopeSchema, withArtifact({ ...artifact, inline_content: null }))).toEqual([
      'payload.artifacts.0.inline_content',
    ]);
    // 1023 bytes pass, 1024 do not; a two-byte character counts twice.
    expect(issuePaths(TiersEnvelopeSchema, withArtifact({ ...artifact, inline_content: 'a'.repeat(1023) }))).toEqual(
      [],
    );
    expect(issuePaths(TiersEnvelopeSchema, withArtifact({ ...artifact, inline_content: 'a'.repeat(1024) }))).toEqual([
      'payload.artifacts.0.inline_content',
    ]);
    expect(issuePaths(TiersEnvelopeSchema, withArtifact({ ...artifact, inline_content: 'é'.repeat(512) }))).toEqual([
      'payload.artifacts.0.inline_content',
    ]);
  });

  it('names the version, tier and timestamp fields when they are wrong', () => {
    expect(issuePaths(TiersEnvelopeSchema, { ...MSG_001, version: '1.0' })).toEqual(['version']);
    expect(issuePaths(TiersEnvelopeSchema, { ...MSG_001, target_tier: 'INTERN' })).toEqual(['target_tier']);
    expect(issuePaths(TiersEnvelopeSchema, { ...MSG_001, timestamp: 'yesterday' })).toEqual(['timestamp']);
  });
});
