import { expect } from 'vitest';
import { AGENT_OUTPUT, REPORTED, type ReportedAgent, type TriggerScenario } from './checkin-scenarios.ts';

/** A run as the API shows it: its view (`GET /pipelines/:id`) and its journal (`.../messages`). */
export interface ObservedRun {
  view: any;
  messages: any[];
}

/** The §10 "Agents Re-run" column, written out from the spec (pipeline order). */
export const SPEC_RERUN: Record<TriggerScenario['trigger'], readonly ReportedAgent[]> = {
  calorie_increase: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
  calorie_decrease: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
  protein_recalculation: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
  tdee_recalculation: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
  training_stall: ['COACH'],
  phase_transition: ['COACH'],
  waist_hip_ratio_flag: ['NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'],
  compliance_issue: ['DIETITIAN', 'CHEF'],
  tier_progression: ['NUTRITIONIST', 'DIETITIAN', 'CHEF'],
  physician_advisory: [],
  cycle_phase_adjustment: ['DIETITIAN', 'CHEF'],
};

/** The run id version `version` of run `id` answers under (`<id>_vN` from version 2). */
export const versioned = (id: string, version: number) => (version <= 1 ? id : `${id}_v${version}`);
const macrosOf = (t: any) => ({ protein_g: t.protein_g, fat_g: t.fat_g, carbs_g: t.carbs_g });

/** §7.3 step 6: the delta carries the new target and macros exactly when they changed. */
export function expectDelta(scenario: TriggerScenario, payload: any, before: any, after: any) {
  expect(after.target_intake_kcal !== before.target_intake_kcal).toBe(scenario.delta.kcal);
  if (scenario.delta.kcal) expect(payload.new_target_intake_kcal).toBe(after.target_intake_kcal);
  else expect(payload).not.toHaveProperty('new_target_intake_kcal');
  if (scenario.delta.macros) {
    expect(macrosOf(after)).not.toEqual(macrosOf(before));
    expect(payload.new_macros).toEqual(macrosOf(after));
  } else {
    expect(macrosOf(after)).toEqual(macrosOf(before));
    expect(payload).not.toHaveProperty('new_macros');
  }
  if (scenario.amountKcal === undefined) expect(payload).not.toHaveProperty('adjustment_amount_kcal');
  else {
    expect(payload.adjustment_amount_kcal).toBe(scenario.amountKcal);
    expect(after.target_intake_kcal - before.target_intake_kcal).toBe(scenario.amountKcal);
  }
}

/** §10: re-run agents answer in `<run>_vN` and their output replaces the old; skipped ones keep theirs (rule 1). */
export function expectPartialRerun(
  before: ObservedRun,
  after: ObservedRun,
  rerun: readonly ReportedAgent[],
  runVN: string,
) {
  const fresh = after.messages.slice(before.messages.length);
  expect(fresh[0]).toMatchObject({ from_agent: 'USER', data_type: 'weekly_checkin' });
  expect(fresh.slice(1).map((e) => e.pipeline_run_id)).toEqual(fresh.slice(1).map(() => runVN));
  expect(fresh.filter((e) => e.data_type === 'adjustment_result')).toHaveLength(1);
  const [was, now] = [before.view.outputs, after.view.outputs];
  for (const agent of REPORTED) {
    const type = AGENT_OUTPUT[agent];
    const sent = fresh.filter((e) => e.from_agent === agent && e.data_type === type);
    if (rerun.includes(agent)) {
      expect(sent.length, `${agent} re-ran`).toBeGreaterThan(0);
      expect(now[type]).toEqual(sent.at(-1)!.payload);
    } else {
      expect(now[type], `${agent} keeps its output`).toEqual(was[type]);
      // A skipped agent's retained output may be handed again to a re-run agent, never replaced.
      for (const envelope of sent) {
        expect(envelope.payload).toEqual(was[type]);
        expect(rerun).toContain(envelope.to_agent);
      }
    }
  }
  // The SCIENTIST's outputs to a chain that does not re-run stay as they were.
  if (!rerun.includes('NUTRITIONIST')) expect(now.macro_targets).toEqual(was.macro_targets);
  if (!rerun.includes('COACH')) expect(now.training_input).toEqual(was.training_input);
  // §10 rule 2: the re-run NUTRITIONIST passes the SCIENTIST's updated numbers through.
  if (rerun.includes('NUTRITIONIST')) {
    const passThrough = (t: any) => ({ target_intake_kcal: t.target_intake_kcal, ...macrosOf(t) });
    expect(passThrough(now.nutrition_strategy)).toEqual(passThrough(now.macro_targets));
  }
  if (rerun.includes('COACH')) expect(now.training_program).not.toEqual(was.training_program);
}
