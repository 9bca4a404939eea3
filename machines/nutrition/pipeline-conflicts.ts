import {
  detectRank2Conflict,
  detectRank3Conflict,
  detectRank4Conflict,
  type AgentConflict,
} from '../../actors/nutrition/conflicts.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { PipelineContext } from './pipeline-context.ts';

/** §8: the conflicts of one output, with the higher-ranked agent's data that wins. */
export interface OutputConflict {
  rank: AgentConflict['rank'];
  higher_agent: AgentConflict['higher_agent'];
  lower_agent: AgentConflict['lower_agent'];
  message: string;
  /** The higher-ranked agent's numbers the lower one must comply with. */
  authoritative: unknown;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function summarize(conflicts: readonly AgentConflict[], authoritative: unknown): OutputConflict[] {
  const [first] = conflicts;
  if (!first) return [];
  const fields = conflicts.map((c) => `${c.field} ${c.actual} (expected ${c.expected}, off ${pct(c.deviation)})`);
  return [
    {
      rank: first.rank,
      higher_agent: first.higher_agent,
      lower_agent: first.lower_agent,
      message: `${first.lower_agent} contradicts ${first.higher_agent} (§8 rank ${first.rank}): ${fields.slice(0, 5).join('; ')}${fields.length > 5 ? `; and ${fields.length - 5} more` : ''}.`,
      authoritative,
    },
  ];
}

/** §8 conflict detection: every output checked against its upstream before it passes downstream. */
export function detectOutputConflicts(
  context: PipelineContext,
  envelopes: readonly NutritionEnvelope[],
): OutputConflict[] {
  const { macro_targets: targets, nutrition_strategy: strategy, weekly_meal_plan: plan } = context.outputs;
  return envelopes.flatMap((envelope) => {
    if (envelope.data_type === 'nutrition_strategy' && targets?.data_type === 'macro_targets') {
      return summarize(detectRank2Conflict(targets.payload, envelope.payload), { macro_targets: targets.payload });
    }
    if (envelope.data_type === 'weekly_meal_plan' && strategy?.data_type === 'nutrition_strategy') {
      const { target_intake_kcal, protein_g, fat_g, carbs_g } = strategy.payload;
      return summarize(detectRank3Conflict(strategy.payload, envelope.payload), {
        target_intake_kcal,
        protein_g,
        fat_g,
        carbs_g,
      });
    }
    if (envelope.data_type === 'recipes' && plan?.data_type === 'weekly_meal_plan') {
      return summarize(detectRank4Conflict(plan.payload, envelope.payload), { meal_plan: plan.payload });
    }
    return [];
  });
}
