import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { createAnthropicProvider } from '../models/anthropic-provider.ts';
import { readModelResponse } from '../models/model-response.ts';
import type { ModelProvider } from '../models/model-provider.ts';
import { getModelConfig } from '../models/model-registry.ts';
import type { TokenUsage } from '../../protocol/runtime/token-usage.ts';
import type { NutritionAgent } from '../../protocol/nutrition/agents.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { MedicalContext } from '../../protocol/nutrition/medical-context.ts';
import { NutritionPayloadSchemas, type NutritionDataType } from '../../protocol/nutrition/payloads.ts';
import { toErrorIssues, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { nutritionBrain, type BrainHandler, type BrainOutput } from './nutrition-brain.ts';
import { OFFLINE_HANDLERS, offlineNutritionBrains } from './offline-brains.ts';

/** The agents Claude may play, the payload each produces, and its brief (spec 000 §4). */
const ROLES = {
  NUTRITIONIST: {
    produces: 'nutrition_strategy',
    brief:
      'Turn the SCIENTIST targets into a nutrition strategy. Pass target_intake_kcal, protein_g, fat_g and carbs_g through unchanged (the SCIENTIST decides numbers); distribute protein over the five meals; order hardgainer tactics by priority; give supplements with dose and timing, hydration, a fiber target at or above fiber_g_min, special considerations and follicular/luteal adjustments.',
  },
  DIETITIAN: {
    produces: 'weekly_meal_plan',
    brief:
      'Build a 7-day x 5-slot meal template (breakfast, lunch, snack, dinner, presleep) whose weekly totals are within 5 % of the daily targets x 7, with a slot spec per meal, recipe alternatives, a substitution bank, emergency, solo-week and tracking protocols. Never use peanut butter or nut butters; honour every aversion, the cooking skill and the partner.',
  },
  CHEF: {
    produces: 'recipes',
    brief:
      'Write one recipe per distinct slot spec of the plan, each within 10 % of its slot spec on calories, protein, carbs and fat, with ingredients in grams, steps, times, storage and calorie boosts. Give each recipe the recipe_id the plan lists first for its slot. Never reintroduce an averted food.',
  },
  COACH: {
    produces: 'training_program',
    brief:
      'Design the weekly training program from experience, equipment, gym anxiety and injuries: sessions on the available days, exercises with sets, reps, rest, target RPE and a progression rule, recovery protocol, phase-transition criteria, and the weekly sets per muscle group (equal to the sets in the sessions).',
  },
  PHYSICIAN: {
    produces: 'medical_context',
    brief:
      'Answer the health query with an evidence-based explanation, real sources, the mechanism in plain words, whether a referral is needed and to whom, the urgency, and pipeline_action: continue, pause_pending_referral or abort. Always include a medical disclaimer.',
  },
} as const satisfies Partial<Record<NutritionAgent, { produces: NutritionDataType; brief: string }>>;
type ClaudeAgent = keyof typeof ROLES;

const SEVERITY: Record<MedicalContext['pipeline_action'], number> = {
  continue: 0,
  pause_pending_referral: 1,
  abort: 2,
};

/** The tokens and price of one Claude call (priced by spec 001 §11.1's registry), for the log. */
export interface NutritionModelCall {
  agent: ClaudeAgent;
  runId: string;
  model: string;
  usage: TokenUsage;
  costCents: number;
}

/** One console line per call: `nutrition NUTRITIONIST <- claude-haiku-4-5: 1234 tokens (0 cached), $0.0012 (run ...)`. */
function logNutritionModelCall(call: NutritionModelCall): void {
  const { agent, model, usage, costCents, runId } = call;
  console.log(
    `nutrition ${agent} <- ${model}: ${usage.total} tokens (${usage.cached} cached), $${(costCents / 100).toFixed(4)} (run ${runId})`,
  );
}

export interface ClaudeBrainOptions {
  /** The model layer's client (`openModelBackends(config)`; see `nutritionBrainsFor`). */
  client: Anthropic;
  /** A registry id (`PRIMARY_MODEL`); an unknown one is refused when the brains are built. */
  model: string;
  /** Told each call's tokens and cost; one console line by default. */
  onModelCall?: (call: NutritionModelCall) => void;
}

/**
 * Claude as one agent's brain: the agent's own output payload schema becomes the one tool Claude
 * must call (structured output), its answer is validated by that schema (a failure is reported
 * for §6.2), and the offline brain's answer is the guardrail: it decides where envelopes go,
 * and a PHYSICIAN may never be less cautious than the offline rules (§5 rank 1).
 */
function claudeHandler(agent: ClaudeAgent, options: ClaudeBrainOptions, provider: ModelProvider): BrainHandler {
  const { produces, brief } = ROLES[agent];
  const schema = NutritionPayloadSchemas[produces];
  const tool = {
    name: `submit_${produces}`,
    description: `Submit the ${produces} payload (spec 000 §4).`,
    input_schema: z.toJSONSchema(schema, { io: 'input' }) as Anthropic.Tool.InputSchema,
  };
  const baseline = OFFLINE_HANDLERS[agent];
  const onModelCall = options.onModelCall ?? logNutritionModelCall;

  return async (request, tools) => {
    const offline: BrainOutput = await baseline(request, tools);
    const main = offline.envelopes.find((e) => (e as NutritionEnvelope).data_type === produces) as
      NutritionEnvelope | undefined;
    // Where the offline rules send no such payload (an upstream request, say), they stand.
    if (!main) return offline;
    // The layer's provider forces tool use (one tool here, so this one), maps SDK errors to
    // `ModelError` (rate limit, timeout, server error) and reports usage in one shape.
    const message = await provider.call(
      {
        model: options.model,
        system: [
          {
            type: 'text',
            text: `You are the ${agent} agent of a nutrition and training pipeline. ${brief} Answer only by calling ${tool.name}.`,
          },
        ],
        tools: [tool],
        messages: [
          {
            role: 'user',
            content: JSON.stringify({
              input: request.envelope.payload,
              data_type: request.envelope.data_type,
              context: request.context,
            }),
          },
        ],
      },
      tools.signal,
    );
    const response = readModelResponse(message, { requestedModel: options.model, provider });
    onModelCall({
      agent,
      runId: request.envelope.pipeline_run_id,
      model: response.model,
      usage: response.usage,
      costCents: response.costCents,
    });
    const call = response.toolCall?.name === tool.name ? response.toolCall : undefined;
    const parsed = schema.safeParse(call?.arguments);
    if (!parsed.success) {
      throw new ValidationError(`Claude's ${produces} failed its schema.`, toErrorIssues(parsed.error.issues));
    }
    let payload = parsed.data as NutritionEnvelope['payload'];
    if (agent === 'PHYSICIAN') {
      const rules = main.payload as MedicalContext;
      const answer = payload as MedicalContext;
      if (SEVERITY[rules.pipeline_action] > SEVERITY[answer.pipeline_action]) {
        payload = {
          ...answer,
          pipeline_action: rules.pipeline_action,
          urgency: rules.urgency,
          referral_needed: rules.referral_needed,
          referral_target: rules.referral_target,
        };
      }
    }
    const replaced = tools.reply(main.to_agent, produces, payload as never);
    return { ...offline, envelopes: offline.envelopes.map((e) => (e === main ? replaced : e)) };
  };
}

/**
 * The nutrition brains with Claude for NUTRITIONIST, DIETITIAN, CHEF, COACH and PHYSICIAN;
 * INTAKE and SCIENTIST stay deterministic (numbers are the SCIENTIST's, §8 rank 2).
 */
export function claudeNutritionBrains(options: ClaudeBrainOptions) {
  // Calls are priced by the registry (§11.1): refuse an unknown model now, not after a paid call.
  getModelConfig(options.model);
  const provider = createAnthropicProvider({ client: options.client });
  const brains = offlineNutritionBrains();
  for (const agent of Object.keys(ROLES) as ClaudeAgent[])
    brains[agent] = nutritionBrain(agent, claudeHandler(agent, options, provider));
  return brains;
}
