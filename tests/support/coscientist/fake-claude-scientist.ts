import type { AnthropicReply } from '../models/fake-model-server.ts';

type Json = Record<string, any>;
type Part = { id: string; novelty?: number; evidence?: number; validation?: number; assay?: number; readout?: number };

/** The JSON a co-scientist agent sent Claude (its single user message). */
export function promptOf(body: Json): Json {
  const content = body.messages[0].content;
  const text = typeof content === 'string' ? content : content.map((b: Json) => b.text ?? '').join('');
  return JSON.parse(text) as Json;
}

const toolOf = (body: Json): string => body.tool_choice?.name;
const reply = (name: string, input: Json): AnthropicReply => ({ toolUse: { name, input } });
const keyOf = (c: Json) => `${c.intervention}|${c.target}|${c.mechanism}`;

/** Untaken combinations of the knowledge given, in a stable order. */
function freshCombinations(input: Json, count: number, start?: Json): Json[] {
  const taken = new Set<string>(input.taken);
  const k = input.knowledge;
  const found: Json[] = [];
  const interventions = start ? [{ id: start.intervention }, ...k.interventions] : k.interventions;
  for (const i of interventions)
    for (const t of k.targets)
      for (const m of k.mechanisms) {
        const c = { intervention: i.id, target: t.id, mechanism: m.id };
        if (found.length < count && !taken.has(keyOf(c)) && !found.some((f) => keyOf(f) === keyOf(c))) found.push(c);
      }
  return found;
}

const sum = (scores: { score: number }[]) => scores.reduce((s, x) => s + x.score, 0);

/**
 * A scientist played by the fake model server: answers each co-scientist tool with a valid call,
 * made from what the request itself says (the knowledge it lists, the taken combinations, the
 * reviews it shows), so a whole goal runs on it. `judge` picks a debate's winner (by default the
 * side whose review scores sum higher, whatever the order: a consistent judge).
 *
 * @example
 * const server = await startFakeModelServer({ anthropic: fakeScientist(), anthropicRules: checkForcedToolRequest });
 */
export function fakeScientist(
  options: { judge?: (first: Json, second: Json) => string } = {},
): (body: Json) => AnthropicReply {
  const judge = options.judge ?? ((first, second) => (sum(second.review) > sum(first.review) ? second.id : first.id));
  return (body) => {
    const input = promptOf(body);
    switch (toolOf(body)) {
      case 'propose_hypotheses':
        return reply('propose_hypotheses', {
          hypotheses: freshCombinations(input, input.count).map((components, n) => ({
            text: `Claude hypothesis ${n + 1}: ${keyOf(components)}.`,
            components,
          })),
        });
      case 'submit_review': {
        const { intervention, target, mechanism } = input.parts as Record<string, Part>;
        return reply('submit_review', {
          scores: [
            { criterion: 'novelty', score: intervention!.novelty!, reason: 'Little explored use.' },
            { criterion: 'plausibility', score: target!.validation!, reason: 'Validated target.' },
            { criterion: 'testability', score: mechanism!.readout!, reason: 'Clear readout.' },
          ],
        });
      }
      case 'judge_debate': {
        const winner = judge(input.first, input.second);
        return reply('judge_debate', {
          winner_id: winner,
          debate_transcript: [{ speaker: 'judge', text: `${winner} is stronger on the weighted criteria.` }],
          confidence_score: 0.75,
        });
      }
      case 'evolve_hypotheses': {
        const parent = input.parents[0];
        return reply('evolve_hypotheses', {
          hypotheses: freshCombinations(input, input.count, parent.components).map((components, n) => ({
            text: `Claude refinement ${n + 1} of ${parent.id}.`,
            components,
            parent_ids: [parent.id],
          })),
        });
      }
      case 'write_meta_review':
        return reply('write_meta_review', {
          weak_criterion: 'novelty',
          avoid: [],
          feedback: {
            GENERATION: 'Propose less explored interventions.',
            REFLECTION: 'Cite the evidence behind novelty.',
            RANKING: 'Weight novelty more.',
            EVOLUTION: 'Refine towards novel interventions.',
          },
          overview: `Claude overview of iteration ${input.iteration}.`,
        });
      default:
        return { error: { status: 400, message: `No co-scientist tool ${toolOf(body)}.` } };
    }
  };
}
