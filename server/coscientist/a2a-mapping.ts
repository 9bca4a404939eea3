import { inferDomain, SUPPORTED_DOMAINS } from '../../actors/coscientist/knowledge/knowledge-base.ts';
import { addGuidance } from '../../machines/coscientist/research-guidance.ts';
import type { ResearchRecord } from '../../machines/coscientist/research-record.ts';
import {
  CreateResearchBodySchema,
  GuidanceBodySchema,
  type CreateResearchBody,
} from '../../protocol/coscientist/research-body.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import type { A2aArtifact, A2aInput, A2aMapping } from '../a2a/a2a-mapping.ts';
import { a2aStatusOf } from '../a2a/a2a-status.ts';
import { parseInput } from '../a2a/parse-input.ts';
import type { ResearchService } from './research-service.ts';
import { hypothesesView, overviewView } from './research-views.ts';

/** The states a goal ends in. */
const FINAL = new Set(['completed', 'stopped']);

/** A goal's status: its phases (and `stopping`) are `working`, a stop is `canceled`. */
const statusOf = a2aStatusOf<ResearchRecord>({
  state({ state }) {
    if (state === 'completed') return 'completed';
    if (state === 'stopped') return 'canceled';
    if (state === 'awaiting_scientist') return 'input-required';
    return 'working';
  },
  messages: {
    'input-required': (record) =>
      `${record.question ?? 'The goal waits for you.'} Reply to this task with guidance to resume it.`,
    canceled: () => 'The goal was stopped; what it found is kept.',
  },
});

/** A first message: the body of `POST /research` as data, or the goal as text (text beside data is its goal when it has none). */
function goalOf(input: A2aInput): CreateResearchBody {
  const { data, text } = input;
  const part = data !== undefined ? 'data' : 'text';
  const value =
    data === undefined
      ? text === undefined
        ? undefined
        : { goal: text }
      : text && data && typeof data === 'object' && !Array.isArray(data) && !('goal' in data)
        ? { ...data, goal: text }
        : data;
  const body = parseInput(CreateResearchBodySchema, value, part);
  // Refused before a task exists, naming the part's field (the service would name `domain` alone).
  if (!body.domain && !inferDomain(body.goal)) {
    const path = part === 'data' ? 'data.domain' : 'text';
    const supported = SUPPORTED_DOMAINS.join(', ');
    throw new ValidationError(
      `${path}: the goal names no built-in domain; send a data part with domain, one of ${supported}.`,
      [{ path, message: `Supported: ${supported}.` }],
      'unsupported_domain',
    );
  }
  return body;
}

/** A reply to the goal's question: guidance, as text or `{ text }` as data. */
function guidanceOf(input: A2aInput): string {
  return input.data !== undefined
    ? parseInput(GuidanceBodySchema, input.data, 'data').text
    : parseInput(GuidanceBodySchema.shape.text, input.text, 'text');
}

/**
 * The research co-scientist (spec 003) over A2A: a research goal as text, or the body of
 * `POST /research` as a `data` part, starts a goal (the task's context); its hypotheses ranked
 * by Elo (`coscientist/ranked_hypotheses`) and the latest research overview with the agents'
 * feedback (`coscientist/research_overview`) are the artifacts, sent again as they change; a goal
 * waiting for the scientist (`awaiting_scientist`, a task that failed twice) is `input-required`,
 * and a reply is guidance that answers it; CancelTask stops the goal (`canceled` once stopped).
 */
export function coscientistA2a(service: ResearchService): A2aMapping {
  return {
    description:
      'Spec 003: GENERATION, REFLECTION, RANKING (an Elo tournament of debates), EVOLUTION and META_REVIEW iterate on hypotheses for a research goal, steered by your guidance.',
    skills: [
      {
        id: 'research-goal',
        name: 'Research a goal',
        description:
          'Send the goal as text, or a data part with the body of POST /research (goal, domain?, preferences?, constraints?, iterations?, hypotheses_per_iteration?). Built-in domains: drug_repurposing, antimicrobial_resistance, liver_fibrosis. Artifacts: the ranked hypotheses and the research overview. Reply with guidance when it asks.',
        tags: ['research', 'hypotheses', 'science'],
        examples: [
          'Find epigenetic targets whose inhibition reverses hepatic stellate cell activation in liver fibrosis',
          '{"goal": "Repurpose approved drugs for acute myeloid leukemia", "domain": "drug_repurposing", "iterations": 2, "hypotheses_per_iteration": 4}',
        ],
      },
    ],
    parse: goalOf,
    async start({ owner, request }) {
      const { research_id } = await service.create(owner, request as CreateResearchBody);
      return { ref: research_id, contextId: research_id };
    },
    async view(owner, id) {
      const read = await service.read(owner, id, async (research) => ({
        record: research.run.record,
        hypotheses: await hypothesesView(research),
        overview: await overviewView(research),
      }));
      const { record, hypotheses, overview } = read;
      const artifacts: A2aArtifact[] = [];
      if (hypotheses.length > 0)
        artifacts.push({
          name: 'hypotheses',
          description: 'The hypotheses ranked by Elo rating, best first',
          schema: 'coscientist/ranked_hypotheses',
          data: { research_id: id, iteration: record.iteration, hypotheses },
        });
      if (overview.overview !== null)
        artifacts.push({
          name: 'overview',
          description: "META_REVIEW's latest research overview, and each agent's latest feedback",
          schema: 'coscientist/research_overview',
          data: overview,
        });
      return { ...statusOf(record), artifacts };
    },
    async follow(_owner, id, onChange) {
      return service.events.watch(id, () => onChange());
    },
    checkReply: (input) => void guidanceOf(input),
    async resume(owner, id, input) {
      const text = guidanceOf(input);
      await service.act(owner, id, (research) => addGuidance(research, text));
    },
    async cancel(owner, id) {
      let ended!: () => void;
      const stopped = new Promise<void>((resolve) => (ended = resolve));
      // Heard from before the stop, so the goal's last state change cannot slip by.
      const unwatch = service.events.watch(id, (event) => {
        if (event.event === 'state' && FINAL.has(event.data.state)) ended();
      });
      try {
        const state = await service.act(owner, id, async (research) => {
          await research.run.stop();
          return research.run.record.state;
        });
        // Tasks in flight finish (or time out) first; the goal is `stopped` after them.
        if (!FINAL.has(state)) await stopped;
      } finally {
        unwatch();
      }
    },
  };
}
