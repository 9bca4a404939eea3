import type { OrgEnvelope } from '../../protocol/org/envelope.ts';
import { orgMessage } from './org-envelope.ts';

/** Where a project's opening tasks belong, and when they are sent. */
export interface ProjectTaskSpec {
  projectId: string;
  sprintId: string;
  at: number;
  /** Seeds the ids (the PRD version they follow): the same tasks sent again are the same messages. */
  prdVersion: number;
  priority?: OrgEnvelope['priority'];
}

/**
 * The chief's task assignments on the Orchestration Bus that open a project: `product` plans the
 * PRD, and `devops` plans the deploy once the database schema and the test plan are accepted
 * (`payload.dependencies`, so devops holds it until then).
 */
export function openingTasks(spec: ProjectTaskSpec): OrgEnvelope[] {
  const common = {
    from: 'chief-orchestration' as const,
    type: 'request' as const,
    priority: spec.priority ?? ('medium' as const),
    prdId: spec.projectId,
    sprintId: spec.sprintId,
    at: spec.at,
  };
  return [
    orgMessage({
      ...common,
      to: 'product',
      payload: { task_id: 'plan-prd', content: { kind: 'plan_prd' } },
      seed: ['open', spec.prdVersion, 'product'],
    }),
    orgMessage({
      ...common,
      to: 'devops',
      payload: { task_id: 'plan-deploy', content: { kind: 'plan_deploy' }, dependencies: ['db_schema', 'test_plan'] },
      seed: ['open', spec.prdVersion, 'devops'],
    }),
  ];
}

/** The chief's task for `product` after the user amended the PRD to `prdVersion`. */
export function amendmentTask(spec: ProjectTaskSpec): OrgEnvelope {
  return orgMessage({
    from: 'chief-orchestration',
    to: 'product',
    type: 'request',
    priority: 'high',
    payload: { task_id: `amend-prd-v${spec.prdVersion}`, content: { kind: 'amend_prd', prd_version: spec.prdVersion } },
    prdId: spec.projectId,
    sprintId: spec.sprintId,
    at: spec.at,
    seed: ['amend', spec.prdVersion],
  });
}
