import type { EnvelopeOf } from '../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { MacroTargets } from '../../protocol/nutrition/macro-targets.ts';
import type { WeeklyMealPlan } from '../../protocol/nutrition/weekly-meal-plan.ts';
import { ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { ChefScalingError } from './recipes/chef-scaling-error.ts';
import { buildRecipes } from './recipes/chef.ts';
import { evaluateCheckin } from './checkin/checkin-evaluation.ts';
import {
  createCheckinHistory,
  cyclePhaseOf,
  recordTrainingProgram,
  type CheckinHistory,
} from './checkin/checkin-history.ts';
import { buildTrainingProgram } from './coach/coach.ts';
import { buildWeeklyMealPlan, type DietitianConstraint, type DietitianRerunReason } from './dietitian/dietitian.ts';
import { nutritionBrain, type BrainHandler, type BrainRequest } from './nutrition-brain.ts';
import { buildNutritionStrategy } from './nutritionist/nutritionist-strategy.ts';
import { assessHealthQuery } from './physician/physician-assessment.ts';
import { buildHealthQuery } from './physician/red-flags-health-query.ts';
import { detectIntakeRedFlags } from './physician/red-flags.ts';
import { computeMacroTargets } from './scientist/scientist-macro-targets.ts';
import { buildTrainingInput } from './scientist/scientist-training-input.ts';

/*
 * The offline brains of the nutrition pipeline: deterministic, no network, no key. Each turns
 * the envelope it is given (and the orchestrator's work context) into the envelopes it sends,
 * with the pure domain functions of this folder.
 */

/** The input to work on: the delivered envelope, or on an upstream re-run (§6.3) the one it re-does. */
function workOn(request: BrainRequest) {
  return request.envelope.data_type === 'upstream_data_request' && request.context.rerun_of
    ? request.context.rerun_of
    : request.envelope;
}

function expect<D extends EnvelopeOf<any>['data_type']>(agent: string, envelope: { data_type: string }, ...types: D[]) {
  if (!types.includes(envelope.data_type as D)) {
    throw new ValidationError(`${agent} does not handle ${envelope.data_type}.`, [
      { path: 'data_type', message: `expected ${types.join(' or ')}` },
    ]);
  }
}

const intake: BrainHandler = ({ envelope }, { reply }) => {
  expect('INTAKE', envelope, 'intake_data');
  return { envelopes: [reply('SCIENTIST', 'intake_data', (envelope as EnvelopeOf<'intake_data'>).payload)] };
};

/** SCIENTIST: targets and COACH input from the intake (red flags batched into one query), or a check-in's evaluation. */
const scientist: BrainHandler = (request, { reply }) => {
  const envelope = workOn(request);
  expect('SCIENTIST', envelope, 'intake_data', 'weekly_checkin');
  if (envelope.data_type === 'weekly_checkin') {
    let history = request.context.checkin_history as CheckinHistory;
    if (request.context.training_program) history = recordTrainingProgram(history, request.context.training_program);
    const evaluation = evaluateCheckin(envelope.payload, history);
    const rerun: readonly string[] = evaluation.adjustment.agents_re_run;
    const runId = rerun.length > 0 ? request.context.next_run_id : undefined;
    const flags = evaluation.redFlags.map((flag) => `Health flag for your physician: ${flag.symptom}`);
    const adjustment = {
      ...evaluation.adjustment,
      notes: [...evaluation.adjustment.notes, ...flags],
    } as typeof evaluation.adjustment;
    const envelopes: unknown[] = [reply('USER', 'adjustment_result', adjustment, runId)];
    if (rerun.includes('NUTRITIONIST'))
      envelopes.push(
        reply(
          'NUTRITIONIST',
          'macro_targets',
          evaluation.newMacroTargets ?? evaluation.history.last_macro_targets,
          runId,
        ),
      );
    if (rerun.includes('COACH') && evaluation.trainingInput)
      envelopes.push(reply('COACH', 'training_input', evaluation.trainingInput, runId));
    return { envelopes, memo: { checkin_history: evaluation.history } };
  }
  const client: IntakeData = (envelope as EnvelopeOf<'intake_data'>).payload;
  const history = createCheckinHistory(client);
  const envelopes: unknown[] = [
    reply('NUTRITIONIST', 'macro_targets', computeMacroTargets(client)),
    reply('COACH', 'training_input', buildTrainingInput(client, { history })),
  ];
  const [first, ...others] = detectIntakeRedFlags(client);
  if (first)
    envelopes.unshift(reply('PHYSICIAN', 'health_query', buildHealthQuery([first, ...others], { intake: client })));
  return { envelopes, memo: { checkin_history: history } };
};

const nutritionist: BrainHandler = (request, { reply }) => {
  const envelope = workOn(request);
  expect('NUTRITIONIST', envelope, 'macro_targets');
  const targets = (envelope as EnvelopeOf<'macro_targets'>).payload;
  const { context } = request;
  const history = context.checkin_history as CheckinHistory | undefined;
  const authoritative = (context.constraint?.data as { macro_targets?: MacroTargets } | undefined)?.macro_targets;
  const strategy = buildNutritionStrategy(targets, {
    current_tier: history?.tier ?? 2,
    ...(context.intake ? { menstrual_status: context.intake.menstrual_status } : {}),
    ...(context.physician ? { medical_context: context.physician } : {}),
    ...(authoritative ? { constraint: { macro_targets: authoritative } } : {}),
  });
  return { envelopes: [reply('DIETITIAN', 'nutrition_strategy', strategy)] };
};

const dietitian: BrainHandler = (request, { reply }) => {
  const envelope = workOn(request);
  expect('DIETITIAN', envelope, 'nutrition_strategy');
  const { context } = request;
  const targets = context.macro_targets;
  if (!targets) {
    return {
      envelopes: [
        reply('NUTRITIONIST', 'upstream_data_request', {
          requesting_agent: 'DIETITIAN',
          upstream_agent: 'NUTRITIONIST',
          upstream_data_type: 'nutrition_strategy',
          missing_fields: ['client_constraints'],
          details:
            'The client constraints (aversions, cooking skill, partner) travel with the SCIENTIST targets, which are missing.',
        }),
      ],
    };
  }
  const previous =
    context.previous_output?.data_type === 'weekly_meal_plan' ? context.previous_output.payload : undefined;
  const plan = buildWeeklyMealPlan((envelope as EnvelopeOf<'nutrition_strategy'>).payload, {
    client_constraints: targets.client_constraints,
    weeks_on_program: context.weeks_on_program ?? targets.weeks_on_program,
    ...(previous ? { previous_output: previous } : {}),
    ...(context.validation_issues ? { validation_issues: context.validation_issues } : {}),
    ...(context.constraint?.rank === 3 ? { constraint: context.constraint.data as DietitianConstraint } : {}),
    ...rerunReason(context),
  });
  return { envelopes: [reply('CHEF', 'weekly_meal_plan', plan)] };
};

/** §10: what a DIETITIAN re-run changes in the plan itself (simpler week, luteal energy split). */
function rerunReason(context: BrainRequest['context']): { rerun_reason?: DietitianRerunReason } {
  const triggers = context.adjustment?.triggers_fired ?? [];
  if (triggers.includes('compliance_issue')) return { rerun_reason: { trigger: 'compliance_issue' } };
  const phase = context.adjustment?.checkin && cyclePhaseOf(context.adjustment.checkin);
  if (triggers.includes('cycle_phase_adjustment') && phase)
    return { rerun_reason: { trigger: 'cycle_phase_adjustment', cycle_phase: phase } };
  return {};
}

/** CHEF: recipes for every slot; a slot spec no recipe can meet goes back to the DIETITIAN (§1 chef -> dietitian). */
const chef: BrainHandler = (request, { reply }) => {
  const envelope = workOn(request);
  expect('CHEF', envelope, 'weekly_meal_plan');
  const { context } = request;
  const previous = context.previous_output?.data_type === 'recipes' ? context.previous_output.payload : undefined;
  try {
    const recipes = buildRecipes((envelope as EnvelopeOf<'weekly_meal_plan'>).payload, {
      ...(context.macro_targets ? { client_constraints: context.macro_targets.client_constraints } : {}),
      ...(previous ? { previous_output: previous } : {}),
      ...(context.validation_issues ? { validation_issues: context.validation_issues } : {}),
      ...(context.constraint?.rank === 4
        ? { constraint: context.constraint.data as { meal_plan: WeeklyMealPlan } }
        : {}),
    });
    return { envelopes: [reply('USER', 'recipes', recipes)] };
  } catch (error) {
    if (!(error instanceof ChefScalingError)) throw error;
    return {
      envelopes: [
        reply('DIETITIAN', 'upstream_data_request', {
          requesting_agent: 'CHEF',
          upstream_agent: 'DIETITIAN',
          upstream_data_type: 'weekly_meal_plan',
          missing_fields: [`weekly_template.${error.day}.${error.slot}.slot_spec`],
          details: error.message,
        }),
      ],
    };
  }
};

const coach: BrainHandler = (request, { reply }) => {
  const envelope = workOn(request);
  expect('COACH', envelope, 'training_input');
  const { context } = request;
  const previous =
    context.previous_output?.data_type === 'training_program' ? context.previous_output.payload : undefined;
  const program = buildTrainingProgram((envelope as EnvelopeOf<'training_input'>).payload, {
    ...(previous ? { previous_output: previous } : {}),
    ...(context.validation_issues ? { validation_issues: [...context.validation_issues] } : {}),
    ...(context.physician ? { physician: context.physician } : {}),
  });
  return { envelopes: [reply('USER', 'training_program', program)] };
};

const physician: BrainHandler = ({ envelope }, { reply }) => {
  expect('PHYSICIAN', envelope, 'health_query');
  const query = envelope as EnvelopeOf<'health_query'>;
  return { envelopes: [reply(query.from_agent, 'medical_context', assessHealthQuery(query.payload))] };
};

/** The offline handlers by agent (the Claude brains use them as their guardrail baseline). */
export const OFFLINE_HANDLERS = {
  INTAKE: intake,
  SCIENTIST: scientist,
  NUTRITIONIST: nutritionist,
  DIETITIAN: dietitian,
  CHEF: chef,
  COACH: coach,
  PHYSICIAN: physician,
};
type Agent = keyof typeof OFFLINE_HANDLERS;

/**
 * The seven offline brains, by agent; `latencyMs` makes an agent wait that long before it
 * answers, as a model would (benchmarks and demos).
 */
export function offlineNutritionBrains(options: { latencyMs?: Partial<Record<Agent, number>> } = {}) {
  const brain = (agent: Agent) =>
    nutritionBrain(agent, OFFLINE_HANDLERS[agent], { latencyMs: options.latencyMs?.[agent] ?? 0 });
  return {
    INTAKE: brain('INTAKE'),
    SCIENTIST: brain('SCIENTIST'),
    NUTRITIONIST: brain('NUTRITIONIST'),
    DIETITIAN: brain('DIETITIAN'),
    CHEF: brain('CHEF'),
    COACH: brain('COACH'),
    PHYSICIAN: brain('PHYSICIAN'),
  };
}
