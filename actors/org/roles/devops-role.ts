import type { DbSchema, TestPlan } from '../../../protocol/org/deliverables.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { recordDeliverable } from '../record-deliverable.ts';
import type { Turn } from '../turn.ts';

async function planDeploy(turn: Turn): Promise<boolean> {
  const { ws } = turn;
  const [schema, tests] = await Promise.all([
    ws.deliverable<DbSchema>('db_schema'),
    ws.deliverable<TestPlan>('test_plan'),
  ]);
  if (!schema || !tests) return false;
  const body = await turn.produce.deployPlan({ schema: schema.body, tests: tests.body }, turn.asking());
  const plan = await ws.publish('devops', 'deploy_plan', body);
  await recordDeliverable(turn, plan, ['deploy']);
  await initiateHandoff(turn, 'sdte', plan, { checks: ['gates on every case of the test plan'] });
  return true;
}

/**
 * `devops`: the chief's `plan_deploy` task depends on the database schema and the test plan (it
 * is held until both are accepted); it then plans the deploy and hands it to sdte. A newer schema
 * or test plan accepted after that plans it again.
 */
export const devopsRole: OrgRole = {
  async onTask(turn, kind) {
    if (kind !== 'plan_deploy') return;
    const planned = await planDeploy(turn);
    turn.respond({ kind: 'task_result', status: planned ? 'done' : 'failed', deliverable: 'deploy_plan' });
  },
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'db_schema' && receipt.type !== 'test_plan') return;
    if (await turn.ws.deliverable('deploy_plan')) await planDeploy(turn);
  },
};
