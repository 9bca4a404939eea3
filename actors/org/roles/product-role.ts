import type { OrgAgent } from '../../../protocol/org/envelope.ts';
import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { recordDeliverable } from '../record-deliverable.ts';
import type { Turn } from '../turn.ts';

const STORY_CONSUMERS: OrgAgent[] = ['backend', 'sdte', 'growth'];
const LISTENERS: OrgAgent[] = ['frontend', 'database', 'devops'];

async function publishStories(turn: Turn, amended: boolean, reinitiateTo?: OrgAgent, fix?: readonly ErrorIssue[]) {
  const { ws } = turn;
  const { version, prd } = await ws.prd();
  const body = await turn.produce.stories({ prd, prdVersion: version }, turn.asking(fix));
  const stories = await ws.publish('product', 'stories', body);
  const node = await recordDeliverable(turn, stories, ['requirements']);
  if (reinitiateTo) {
    await initiateHandoff(turn, reinitiateTo, stories, { reinitiate: true });
    return node;
  }
  for (const to of STORY_CONSUMERS) await initiateHandoff(turn, to, stories);
  turn.send({
    label: 'announce',
    to: LISTENERS,
    type: 'notification',
    priority: amended ? 'high' : 'medium',
    payload: {
      task_id: `stories-v${stories.version}`,
      content: {
        kind: amended ? 'prd_updated' : 'stories_published',
        location: stories.location,
        prd_version: version,
      },
    },
    knowledgeRefs: [node.node_id],
  });
  return node;
}

/**
 * `product`: breaks the PRD into stories (one per feature), hands them to backend, sdte and
 * growth, and announces them on the Product Broadcast; amended, it does it again (`prd_updated`).
 * It resolves the feasibility and priority escalations the chief routes to it by the PRD's order.
 */
export const productRole: OrgRole = {
  async onTask(turn, kind) {
    if (kind !== 'plan_prd' && kind !== 'amend_prd') return;
    const node = await publishStories(turn, kind === 'amend_prd');
    turn.respond({ kind: 'task_result', status: 'done', deliverable: 'stories' }, [node.node_id]);
  },
  async onRejected(turn, { to, verdict }) {
    await publishStories(turn, false, to, verdict.issues);
  },
  async onNotification(turn, content) {
    if (content['kind'] !== 'escalation_routed') return;
    turn.send({
      label: 'resolve',
      to: 'chief-orchestration',
      type: 'notification',
      priority: 'high',
      payload: {
        task_id: String(content['escalation_id']),
        content: {
          kind: 'escalation_resolved',
          escalation_id: content['escalation_id'],
          decision: 'Keep the PRD as written: its feature order is the priority order.',
        },
      },
    });
  },
};
