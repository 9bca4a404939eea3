import { describe, expect, it } from 'vitest';
import { CoscientistMessageSchema } from '../../../../protocol/coscientist/message.ts';
import { COSCIENTIST_ROUTES } from '../../../../protocol/coscientist/routing-table.ts';
import { COSCIENTIST_BROADCAST } from '../../../../protocol/coscientist/envelope.ts';
import { researchMessage } from '../../../../machines/coscientist/research-messages.ts';

const base = { researchId: 'r1', at: Date.parse('2026-03-01T09:00:00Z'), priority: 5, key: 'k' } as const;

describe('CoscientistMessageSchema', () => {
  it('takes each pattern with its own fields: target_agents and incorporation_strategy, debate_format and evaluation_criteria', () => {
    const feedback = researchMessage({
      ...base,
      type: 'feedback_broadcast',
      from: 'SUPERVISOR',
      to: 'broadcast',
      data: {
        feedback_type: 'meta_review',
        target_agents: ['GENERATION'],
        feedback_entry_ids: ['i1-GENERATION'],
        feedback_content: 'weight plausibility',
        incorporation_strategy: 'criteria_weighting',
      },
    });
    expect(CoscientistMessageSchema.parse(feedback)).toEqual(feedback);
    const tournament = researchMessage({
      ...base,
      type: 'tournament_request',
      from: 'RANKING',
      to: 'SUPERVISOR',
      data: {
        hypothesis_pairs: [{ a: 'h1', b: 'h2', debate_format: 'multi_turn_debate' }],
        debate_format: 'multi_turn_debate',
        evaluation_criteria: { weights: { novelty: 0.5, plausibility: 0.25, testability: 0.25 } },
      },
      taskId: 'i1-rank',
    });
    expect(CoscientistMessageSchema.parse(tournament).payload.metadata?.task_id).toBe('i1-rank');
  });

  it('names the payload field that is wrong, and an unknown message type', () => {
    const bad = researchMessage({
      ...base,
      type: 'task_result',
      from: 'GENERATION',
      to: 'SUPERVISOR',
      data: { task_id: 't', status: 'done' as never, entry_ids: [] },
    });
    const result = CoscientistMessageSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['payload.data.status']);
    const unknown = { ...bad, header: { ...bad.header, message_type: 'gossip' } };
    expect(CoscientistMessageSchema.safeParse(unknown).error!.issues[0]!.path).toEqual(['header', 'message_type']);
  });

  it('refuses evaluation weights that do not sum to 1', () => {
    const message = researchMessage({
      ...base,
      type: 'tournament_request',
      from: 'RANKING',
      to: 'SUPERVISOR',
      data: {
        hypothesis_pairs: [],
        debate_format: 'single_comparison',
        evaluation_criteria: { weights: { novelty: 1, plausibility: 1, testability: 1 } },
      },
    });
    expect(CoscientistMessageSchema.safeParse(message).error!.issues[0]!.path.join('.')).toBe(
      'payload.data.evaluation_criteria.weights',
    );
  });

  it('derives the same message id from the same goal, type and key', () => {
    const one = researchMessage({
      ...base,
      type: 'guidance_update',
      from: 'SUPERVISOR',
      to: 'GENERATION',
      data: { guidance_entry_id: 'g', concepts: [] },
    });
    const two = researchMessage({
      ...base,
      at: base.at + 5,
      type: 'guidance_update',
      from: 'SUPERVISOR',
      to: 'GENERATION',
      data: { guidance_entry_id: 'g', concepts: [] },
    });
    expect(two.header.message_id).toBe(one.header.message_id);
  });
});

describe('COSCIENTIST_ROUTES', () => {
  it('has the SUPERVISOR at one end of every edge, and only the SUPERVISOR broadcasts', () => {
    for (const route of COSCIENTIST_ROUTES)
      expect([route.from, route.to], JSON.stringify(route)).toContain('SUPERVISOR');
    const broadcasters = COSCIENTIST_ROUTES.filter((r) => r.to === COSCIENTIST_BROADCAST).map((r) => r.from);
    expect(new Set(broadcasters)).toEqual(new Set(['SUPERVISOR']));
  });
});
