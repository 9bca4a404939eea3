import { z } from 'zod';
import { HypothesisContentSchema, type DebateContent } from '../../../../protocol/coscientist/memory-content.ts';
import {
  DebateFormatSchema,
  DebateResultSchema,
  EvaluationCriteriaSchema,
  type DebateFormat,
  type EvaluationCriteria,
} from '../../../../protocol/coscientist/payloads.ts';
import type { AgentBrain, AgentContext } from '../agent-context.ts';
import { reviewsByHypothesis } from '../memory-reads.ts';
import { rankingAgent } from '../ranking-agent.ts';
import { askClaude, type ClaudeAccess } from './ask-claude.ts';

/** `judge_debate`'s input: spec 003's debate result without the ids the SUPERVISOR already knows. */
export const VerdictSchema = DebateResultSchema.pick({
  winner_id: true,
  debate_transcript: true,
  confidence_score: true,
});

const SYSTEM = [
  'You are the RANKING agent of an AI co-scientist (spec 003), judging a tournament match between two research',
  'hypotheses. For a multi_turn_debate, write a short debate (each hypothesis argued by its id as speaker, then',
  'the judge); for a single_comparison, only the judge. Weigh novelty, plausibility and testability by the weights',
  "given, using each hypothesis' review. There are no draws. Answer only by calling judge_debate, naming the",
  'winner by its id and your confidence from 0 to 1.',
].join(' ');

type Side = { id: string; text: string; review: unknown };

/** One order of presentation: Claude's verdict with `first` shown first. */
async function verdict(
  access: ClaudeAccess,
  context: AgentContext,
  first: Side,
  second: Side,
  format: DebateFormat,
  criteria: EvaluationCriteria,
): Promise<z.output<typeof VerdictSchema>> {
  const { value } = await askClaude(
    access,
    context,
    {
      system: SYSTEM,
      input: { debate_format: format, evaluation_criteria: criteria, first, second },
      tool: {
        name: 'judge_debate',
        description: 'Submit the winner id, the transcript and the confidence.',
        schema: VerdictSchema,
      },
    },
    (answer) =>
      [first.id, second.id].includes(answer.winner_id)
        ? []
        : [`the winner "${answer.winner_id}" is neither ${first.id} nor ${second.id}`],
  );
  return value;
}

/**
 * A debate on Claude: the pair judged in both orders (position bias), a changed verdict being no
 * result, as offline; the transcript is Claude's, both orders. Written as the offline debate is.
 */
async function claudeDebate(access: ClaudeAccess, input: Record<string, unknown>, context: AgentContext) {
  const debateId = String(input.debate_id);
  const reviews = await reviewsByHypothesis(context.memory);
  const side = async (id: string): Promise<Side> => {
    const entry = await context.memory.get('hypothesis', id);
    const review = reviews.get(id);
    if (!entry || !review) throw new Error(`Debate ${debateId} names ${id}, which has no reviewed hypothesis.`);
    return { id, text: HypothesisContentSchema.parse(entry.content).text, review: review.scores };
  };
  const [a, b] = [await side(String(input.a)), await side(String(input.b))];
  const format = DebateFormatSchema.parse(input.debate_format);
  const criteria = EvaluationCriteriaSchema.parse(input.evaluation_criteria);
  const forward = await verdict(access, context, a, b, format, criteria);
  const backward = await verdict(access, context, b, a, format, criteria);
  const consistent = forward.winner_id === backward.winner_id;
  const content: DebateContent = {
    debate_id: debateId,
    pair: [a.id, b.id],
    format,
    consistent,
    debate_transcript: [...forward.debate_transcript, ...backward.debate_transcript],
    confidence_score: consistent
      ? Math.round(((forward.confidence_score + backward.confidence_score) / 2) * 1000) / 1000
      : 0,
  };
  if (consistent) {
    content.winner_id = forward.winner_id;
    content.loser_id = forward.winner_id === a.id ? b.id : a.id;
  }
  context.signal.throwIfAborted();
  const written = await context.memory.create('RANKING', 'debate', content, {
    entryId: debateId,
    dependencies: [`rev-${a.id}`, `rev-${b.id}`],
  });
  return { entry_ids: [written.entry_id] };
}

/**
 * RANKING with Claude judging its debates; the tournament request (pairing) and the Elo update
 * stay the offline agent's arithmetic, so ratings are always 1200 plus the stored deltas.
 *
 * @example
 * const brains = { ...OFFLINE_BRAINS, RANKING: claudeRanking(access) };
 */
export function claudeRanking(access: ClaudeAccess): AgentBrain {
  return (input, context) =>
    input.kind === 'debate' ? claudeDebate(access, input, context) : rankingAgent(input, context);
}
