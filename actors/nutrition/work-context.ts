import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import type { NutritionEnvelope } from '../../protocol/nutrition/envelope.ts';
import type { MacroTargets } from '../../protocol/nutrition/macro-targets.ts';
import type { MedicalContext } from '../../protocol/nutrition/medical-context.ts';
import type { IntakeData } from '../../protocol/nutrition/intake-data.ts';
import type { TrainingProgram } from '../../protocol/nutrition/training-program.ts';
import type { AdjustmentTrigger } from '../../protocol/nutrition/adjustment-result.ts';
import type { WeeklyCheckin } from '../../protocol/nutrition/weekly-checkin.ts';

/**
 * What the orchestrator attaches beside an envelope it releases to a pipeline agent (journaled
 * with it): the data an agent needs beyond its upstream payload, and why it is asked again.
 */
export interface WorkContext {
  /** The client's intake, for the agents whose payload does not carry the constraints they honour. */
  intake?: IntakeData;
  /** The SCIENTIST targets in force (DIETITIAN and CHEF honour aversions, skill and partner from them). */
  macro_targets?: MacroTargets;
  /** Weeks on program (intake is week 0, each check-in one more). */
  weeks_on_program?: number;
  /** This agent's previous output, on a re-run (§10 rule 2: delta-aware generation). */
  previous_output?: NutritionEnvelope;
  /** §6.2: what was wrong with this agent's previous output. */
  validation_issues?: ErrorIssue[];
  /** §8: the higher-ranked agent's authoritative data this agent must comply with. */
  constraint?: { rank: number; authority: string; details: string[]; data?: unknown };
  /** §5: a PHYSICIAN `continue` response, attached to the next agent as context. */
  physician?: MedicalContext;
  /** The check-in history (SCIENTIST evaluates §7.3 against it; NUTRITIONIST reads the ramp tier). */
  checkin_history?: unknown;
  /** For SCIENTIST on a check-in: the COACH's latest program (its phase plan times transitions). */
  training_program?: TrainingProgram;
  /** For SCIENTIST on a check-in: the run id a re-run it triggers will carry (§10 rule 3). */
  next_run_id?: string;
  /** §6.3: the input this agent should process again, more completely (an upstream re-run). */
  rerun_of?: NutritionEnvelope;
  /** §10: the check-in triggers behind this re-run, and the check-in itself. */
  adjustment?: { triggers_fired: readonly AdjustmentTrigger[]; checkin?: WeeklyCheckin };
  /** Why this agent runs again (a §7.3 trigger, a §6.3 request), in words for its notes. */
  reason?: string;
}
