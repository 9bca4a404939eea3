import {
  DebateContentSchema,
  type DebateContent,
  HypothesisContentSchema,
  RankingContentSchema,
} from '../../../protocol/coscientist/memory-content.ts';
import {
  DebateFormatSchema,
  EvaluationCriteriaSchema,
  type EvaluationCriteria,
  type TournamentRequest,
} from '../../../protocol/coscientist/payloads.ts';
import { judgeDebate } from '../rules/debate.ts';
import { applyDebates, INITIAL_ELO } from '../rules/elo.ts';
import { tournamentPairs } from '../rules/tournament-pairs.ts';
import type { AgentBrain, AgentContext } from './agent-context.ts';
import { latestFeedback, RANKING_ENTRY, readRanking, reviewsByHypothesis } from './memory-reads.ts';

/** The top of the ranking that gets multi-turn debates. */
export const TOP_K = 4;

/** Equal weights, or half on the criterion RANKING's feedback names. */
async function evaluationCriteria(context: AgentContext): Promise<EvaluationCriteria> {
  const feedback = context.feedback ? await latestFeedback(context.memory, 'RANKING') : undefined;
  const weak = feedback?.weak_criterion;
  if (!weak) return { weights: { novelty: 1 / 3, plausibility: 1 / 3, testability: 1 - 2 / 3 } };
  const weights = { novelty: 0.25, plausibility: 0.25, testability: 0.25 };
  weights[weak] = 0.5;
  return { weights };
}

/** RANKING asks for a tournament: pairs of the reviewed hypotheses, favouring few matches and the top-k. */
async function requestTournament(context: AgentContext): Promise<TournamentRequest> {
  const reviews = await reviewsByHypothesis(context.memory);
  const { ranking } = await readRanking(context.memory);
  const entrants = [...reviews.keys()].sort().map((id) => ({
    id,
    elo: ranking.ratings[id] ?? INITIAL_ELO,
    matches: ranking.matches[id] ?? 0,
  }));
  const hypothesis_pairs = tournamentPairs(entrants, { topK: TOP_K, maxPairs: Math.max(4, entrants.length * 2) });
  return {
    hypothesis_pairs,
    debate_format: 'multi_turn_debate',
    evaluation_criteria: await evaluationCriteria(context),
  };
}

/** One debate of a tournament (a worker per debate, run in parallel). */
async function debate(input: Record<string, unknown>, context: AgentContext) {
  const [a, b] = [String(input.a), String(input.b)];
  const reviews = await reviewsByHypothesis(context.memory);
  const contender = async (id: string) => {
    const entry = await context.memory.get('hypothesis', id);
    const review = reviews.get(id);
    if (!entry || !review)
      throw new Error(`Debate ${String(input.debate_id)} names ${id}, which has no reviewed hypothesis.`);
    return { id, text: HypothesisContentSchema.parse(entry.content).text, review };
  };
  const content = judgeDebate({
    debateId: String(input.debate_id),
    a: await contender(a),
    b: await contender(b),
    format: DebateFormatSchema.parse(input.debate_format),
    criteria: EvaluationCriteriaSchema.parse(input.evaluation_criteria),
    seed: context.goalId,
  });
  await context.pause();
  context.signal.throwIfAborted();
  const written = await context.memory.create('RANKING', 'debate', content, {
    entryId: content.debate_id,
    dependencies: [`rev-${a}`, `rev-${b}`],
  });
  return { entry_ids: [written.entry_id] };
}

/**
 * RANKING applies a tournament: reads every debate result of the batch, updates Elo in
 * deterministic order, stores each match with its delta, then writes the table by
 * read-before-write (retrying on a version conflict).
 */
async function applyTournament(input: Record<string, unknown>, context: AgentContext) {
  const iteration = Number(input.iteration);
  const ids = Array.isArray(input.debate_ids) ? input.debate_ids.map(String) : [];
  const debates: DebateContent[] = [];
  for (const id of ids) {
    const entry = await context.memory.get('debate', id);
    if (entry) debates.push(DebateContentSchema.parse(entry.content));
  }
  // Matches first: a crash before the table is written leaves matches the rerun finds again.
  const { ranking: before } = await readRanking(context.memory);
  const { matches } = applyDebates(before, debates, iteration);
  const matchEntries = await Promise.all(
    matches.map((match) =>
      context.memory.create('RANKING', 'match', match, {
        entryId: `m-${match.debate_id}`,
        dependencies: [match.debate_id],
      }),
    ),
  );
  const written = await context.memory.update('RANKING', 'ranking', RANKING_ENTRY, (current) => {
    const base = current ? RankingContentSchema.parse(current.content) : before;
    const at = context.memory.now();
    return {
      entry_id: RANKING_ENTRY,
      agent_id: 'RANKING',
      entry_type: 'ranking',
      content: applyDebates(base, debates, iteration).ranking,
      created_at: current?.created_at ?? at,
      updated_at: at,
      dependencies: ids,
    };
  });
  return { entry_ids: [written.entry_id, ...matchEntries.map((e) => e.entry_id)] };
}

/** RANKING, offline: a tournament request, one debate, or the Elo update of a finished tournament (`input.kind`). */
export const rankingAgent: AgentBrain = async (input, context) => {
  switch (input.kind) {
    case 'tournament_request':
      return { entry_ids: [], tournament: await requestTournament(context) };
    case 'debate':
      return debate(input, context);
    case 'apply':
      return applyTournament(input, context);
    default:
      throw new Error(`RANKING has no task kind "${String(input.kind)}": use tournament_request, debate or apply.`);
  }
};
