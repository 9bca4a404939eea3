import type { DbSchema, DeployPlan, TestPlan } from '../../../protocol/org/deliverables.ts';

/** `devops`'s rule: migrate, test behind the test plan's gate, deploy blue-green, verify; roll back by switching back. */
export function deployPlanFor(schema: DbSchema, tests: TestPlan): DeployPlan {
  return {
    stages: [
      { name: 'build', steps: ['Build the frontend and backend images', 'Tag them with the sprint'] },
      { name: 'migrate', steps: schema.tables.map((table) => `Create table ${table.name} on ${schema.engine}`) },
      { name: 'test', steps: [`Run the ${tests.cases.length} cases of the test plan against staging`] },
      { name: 'deploy', steps: ['Deploy to the green environment', 'Switch traffic from blue to green'] },
      { name: 'verify', steps: ['Watch error rates for 15 minutes'] },
    ],
    migrations: schema.tables.map((table) => `create_${table.name}`),
    gate: { test_cases: tests.cases.length },
    rollback: 'Switch traffic back to blue; migrations are additive, so none is reverted.',
  };
}
