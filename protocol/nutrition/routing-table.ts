import type { Route } from '../runtime/routing.ts';

const PHYSICIAN_CALLERS = ['INTAKE', 'SCIENTIST', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH', 'USER'] as const;

/**
 * Every edge of the nutrition pipeline (`from -> to : data_type`): the §4 edges, §5 PHYSICIAN
 * queries from any agent and answers back, §6 errors to the user, §6.3 upstream requests, §7
 * check-ins and their results.
 */
export const NUTRITION_ROUTES: readonly Route[] = [
  { from: 'USER', to: 'INTAKE', data_type: 'intake_data' },
  { from: 'INTAKE', to: 'SCIENTIST', data_type: 'intake_data' },
  { from: 'SCIENTIST', to: 'NUTRITIONIST', data_type: 'macro_targets' },
  { from: 'SCIENTIST', to: 'COACH', data_type: 'training_input' },
  { from: 'NUTRITIONIST', to: 'DIETITIAN', data_type: 'nutrition_strategy' },
  { from: 'DIETITIAN', to: 'CHEF', data_type: 'weekly_meal_plan' },
  { from: 'CHEF', to: 'USER', data_type: 'recipes' },
  { from: 'COACH', to: 'USER', data_type: 'training_program' },
  ...PHYSICIAN_CALLERS.flatMap((caller) => [
    { from: caller, to: 'PHYSICIAN', data_type: 'health_query' },
    { from: 'PHYSICIAN', to: caller, data_type: 'medical_context' },
  ]),
  { from: 'ORCHESTRATOR', to: 'USER', data_type: 'pipeline_error' },
  { from: 'NUTRITIONIST', to: 'SCIENTIST', data_type: 'upstream_data_request' },
  { from: 'DIETITIAN', to: 'NUTRITIONIST', data_type: 'upstream_data_request' },
  { from: 'CHEF', to: 'DIETITIAN', data_type: 'upstream_data_request' },
  { from: 'COACH', to: 'SCIENTIST', data_type: 'upstream_data_request' },
  { from: 'USER', to: 'SCIENTIST', data_type: 'weekly_checkin' },
  { from: 'SCIENTIST', to: 'USER', data_type: 'adjustment_result' },
];
