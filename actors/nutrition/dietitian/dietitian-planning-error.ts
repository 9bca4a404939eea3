import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';

/**
 * The DIETITIAN cannot build a plan from its inputs (targets that leave no energy beyond protein,
 * or constraints that exclude every recipe of a slot). The message says which input to change.
 */
export class DietitianPlanningError extends RuntimeError {
  override name = 'DietitianPlanningError';
  constructor(message: string) {
    super('meal_plan_infeasible', message, 422);
  }
}
