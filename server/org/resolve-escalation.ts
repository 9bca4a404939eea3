import type { OrgWorkspace } from '../../actors/org/workspace.ts';
import type { ResolveEscalationBody } from '../../protocol/org/http-bodies.ts';
import { ConflictError, NotFoundError } from '../../protocol/runtime/runtime-error.ts';

/**
 * The user resolves an escalation sent to them: with `apply_recommendation`, the pending
 * decision is recorded, superseding (explicitly) the active decisions it clashes with.
 *
 * @example
 * await resolveEscalation(ws, escalationId, { decision: 'Go offline-first', apply_recommendation: true }, Date.now());
 */
export async function resolveEscalation(
  ws: OrgWorkspace,
  escalationId: string,
  body: ResolveEscalationBody,
  now: number,
) {
  const escalation = await ws.escalation(escalationId);
  if (!escalation) throw new NotFoundError(`Escalation ${escalationId}`);
  if (escalation.status !== 'awaiting_user')
    throw new ConflictError(
      'not_awaiting_user',
      `Escalation ${escalationId} is ${escalation.status}; only one sent to you can be resolved here.`,
    );
  const pending = escalation.pending_decision as Parameters<OrgWorkspace['knowledge']['record']>[1] | undefined;
  if (body.apply_recommendation && pending) {
    const clashes = (await ws.knowledge.activeDecisionsTagged(pending.tags)).filter(
      (n) => n.claim?.topic === pending.claim?.topic && n.claim?.value !== pending.claim?.value,
    );
    await ws.knowledge.record('user', {
      ...pending,
      relations: clashes.map((n) => ({ type: 'supersedes' as const, to: n.node_id })),
    });
  }
  const resolved = {
    ...escalation,
    status: 'resolved' as const,
    resolution: {
      by: 'user' as const,
      decision: body.decision,
      applied_recommendation: body.apply_recommendation,
      at: new Date(now).toISOString(),
    },
  };
  await ws.putEscalation('user', resolved);
  return resolved;
}
