import fc from 'fast-check';
import type { OFFLINE_HANDLERS as Handlers } from '../../../actors/nutrition/offline-brains.ts';
import type { BrainHandler, BrainOutput, Reply } from '../../../actors/nutrition/nutrition-brain.ts';
import type { WorkContext } from '../../../actors/nutrition/work-context.ts';
import { makeEnvelope } from '../../../actors/nutrition/envelope-factory.ts';
import type { NutritionAgent } from '../../../protocol/nutrition/agents.ts';
import type { EnvelopeOf, NutritionEnvelope } from '../../../protocol/nutrition/envelope.ts';
import type { IntakeData } from '../../../protocol/nutrition/intake-data.ts';
import { intakeArb } from './scientist-arbitraries.ts';

// Drives the offline brains' handlers directly (no runtime) along an initial pipeline run and a
// DIETITIAN/CHEF re-run, recording every step's output as JSON text. Envelopes get a fixed
// timestamp so that the same brains give the same bytes: the golden test compares them, and the
// brains benchmark runs the same chain on two copies of the handlers.

/** A fixed creation time for every envelope of a chain. */
const AT = new Date('2025-01-06T08:00:00Z');

/** How the DIETITIAN and CHEF are asked again after the initial run. */
export type Rerun =
  | { kind: 'none' }
  | { kind: 'compliance_issue' }
  | { kind: 'luteal' }
  | { kind: 'rank3'; kcal_factor: number }
  | { kind: 'rank4'; max_deviation: number }
  | { kind: 'previous_invalid' };

/** One case of the chain: a valid intake, and the re-run after its initial run. */
export interface ChainCase {
  intake: IntakeData;
  rerun: Rerun;
}

const rerunArb: fc.Arbitrary<Rerun> = fc.oneof(
  fc.constant<Rerun>({ kind: 'none' }),
  fc.constant<Rerun>({ kind: 'compliance_issue' }),
  fc.constant<Rerun>({ kind: 'luteal' }),
  fc.integer({ min: 85, max: 115 }).map((pct): Rerun => ({ kind: 'rank3', kcal_factor: pct / 100 })),
  fc.constantFrom(0.05, 0.1, 0.15).map((max): Rerun => ({ kind: 'rank4', max_deviation: max })),
  fc.constant<Rerun>({ kind: 'previous_invalid' }),
);

/**
 * Realistic valid intakes, each with a re-run kind. Most keep 0-4 of their extra aversions (many
 * aversions leave a slot without recipes, and the plan is refused: a seventh of the cases keep them all).
 */
export const chainCaseArb: fc.Arbitrary<ChainCase> = fc
  .record({ intake: intakeArb, keep: fc.integer({ min: 0, max: 5 }), rerun: rerunArb })
  .map(({ intake, keep, rerun }) => ({
    intake: keep === 5 ? intake : { ...intake, food_aversions: intake.food_aversions.slice(0, 2 + keep) },
    rerun,
  }));

/** The same `count` cases for a seed. */
export function sampleChainCases(seed: number, count: number): ChainCase[] {
  return fc.sample(chainCaseArb, { seed, numRuns: count });
}

/** Each step's output (its envelopes, its memo, or the error it threw) as JSON text, by step name. */
export type ChainRecord = Record<string, string>;

type Outcome = { ok: true; output: BrainOutput } | { ok: false; error: string };

/**
 * Runs one case through `handlers` (the seven offline handlers of some copy of the brains) and
 * records every step. A step whose input is missing (an earlier step threw) is not recorded.
 */
export async function runChain(handlers: typeof Handlers, chainCase: ChainCase): Promise<ChainRecord> {
  const record: ChainRecord = {};
  const runId = 'run-golden';
  let seq = 0;
  const call = async (
    name: string,
    agent: NutritionAgent,
    envelope: NutritionEnvelope,
    context: WorkContext,
  ): Promise<Outcome> => {
    const handler: BrainHandler = handlers[agent as keyof typeof Handlers];
    let index = 0;
    const messageId = `m-${seq++}`;
    const reply: Reply = (to, dataType, payload, id = runId) =>
      makeEnvelope({
        from: agent,
        to,
        dataType,
        payload: payload as never,
        runId: id,
        idSeed: [messageId, agent, index++],
        at: AT,
      });
    let outcome: Outcome;
    try {
      outcome = {
        ok: true,
        output: await handler({ envelope, context }, { reply, signal: new AbortController().signal }),
      };
    } catch (error) {
      outcome = { ok: false, error: `${(error as Error).name}: ${(error as Error).message}` };
    }
    record[name] = JSON.stringify(outcome.ok ? outcome.output : { error: outcome.error });
    return outcome;
  };
  const sent = (outcome: Outcome, dataType: string) =>
    outcome.ok
      ? (outcome.output.envelopes as NutritionEnvelope[]).find((envelope) => envelope.data_type === dataType)
      : undefined;
  const { intake } = chainCase;
  const intakeEnvelope = makeEnvelope({
    from: 'USER',
    to: 'INTAKE',
    dataType: 'intake_data',
    payload: intake,
    runId,
    idSeed: ['intake'],
    at: AT,
  }) as NutritionEnvelope;

  const intakeOut = await call('INTAKE', 'INTAKE', intakeEnvelope, {});
  const toScientist = sent(intakeOut, 'intake_data');
  if (!toScientist) return record;
  const scientist = await call('SCIENTIST', 'SCIENTIST', toScientist, {});
  if (!scientist.ok) return record;
  const history = (scientist.output.memo as { checkin_history: unknown }).checkin_history;
  const query = sent(scientist, 'health_query');
  let physician: WorkContext['physician'];
  if (query) {
    const answer = sent(await call('PHYSICIAN', 'PHYSICIAN', query, {}), 'medical_context');
    physician = (answer as EnvelopeOf<'medical_context'> | undefined)?.payload;
  }
  const training = sent(scientist, 'training_input');
  if (training) await call('COACH', 'COACH', training, physician ? { physician } : {});
  const targetsEnvelope = sent(scientist, 'macro_targets') as EnvelopeOf<'macro_targets'> | undefined;
  if (!targetsEnvelope) return record;
  const macro_targets = targetsEnvelope.payload;
  const strategy = sent(
    await call('NUTRITIONIST', 'NUTRITIONIST', targetsEnvelope, {
      intake,
      checkin_history: history,
      ...(physician ? { physician } : {}),
    }),
    'nutrition_strategy',
  );
  if (!strategy) return record;
  const base: WorkContext = { macro_targets, weeks_on_program: macro_targets.weeks_on_program };
  const plan = sent(await call('DIETITIAN', 'DIETITIAN', strategy, base), 'weekly_meal_plan');
  if (!plan) return record;
  const recipes = sent(await call('CHEF', 'CHEF', plan, base), 'recipes');

  const { rerun } = chainCase;
  if (rerun.kind === 'none') return record;
  const again = await rerunContext(rerun, strategy as EnvelopeOf<'nutrition_strategy'>, plan);
  const plan2 = sent(await call('DIETITIAN_RERUN', 'DIETITIAN', strategy, { ...base, ...again }), 'weekly_meal_plan');
  if (!plan2) return record;
  const chefAgain: WorkContext = {
    ...base,
    ...(recipes ? { previous_output: recipes } : {}),
    ...(again.validation_issues ? { validation_issues: again.validation_issues } : {}),
    ...(rerun.kind === 'rank4'
      ? {
          constraint: {
            rank: 4,
            authority: 'DIETITIAN',
            details: [],
            data: { meal_plan: (plan2 as EnvelopeOf<'weekly_meal_plan'>).payload, max_deviation: rerun.max_deviation },
          },
        }
      : {}),
  };
  await call('CHEF_RERUN', 'CHEF', plan2, chefAgain);
  return record;
}

/** The DIETITIAN's context on the re-run of a case, beside its initial context. */
async function rerunContext(
  rerun: Exclude<Rerun, { kind: 'none' }>,
  strategy: EnvelopeOf<'nutrition_strategy'>,
  plan: NutritionEnvelope,
): Promise<WorkContext> {
  const previous = { previous_output: plan };
  switch (rerun.kind) {
    case 'compliance_issue':
      return { ...previous, adjustment: { triggers_fired: ['compliance_issue'] } };
    case 'luteal':
      return {
        ...previous,
        adjustment: {
          triggers_fired: ['cycle_phase_adjustment'],
          checkin: { cycle_phase: 'luteal' } as never,
        },
      };
    case 'rank3': {
      const kcal = Math.round(strategy.payload.target_intake_kcal * rerun.kcal_factor);
      const carbs = Math.round(strategy.payload.carbs_g + (kcal - strategy.payload.target_intake_kcal) / 4);
      return {
        ...previous,
        constraint: {
          rank: 3,
          authority: 'NUTRITIONIST',
          details: [],
          data: { target_intake_kcal: kcal, carbs_g: carbs },
        },
      };
    }
    case 'rank4':
      return previous;
    case 'previous_invalid':
      return { ...previous, validation_issues: [{ path: 'weekly_template', message: 'not from this brain' }] };
  }
}
