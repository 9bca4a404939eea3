import { orgMessage } from '../../../actors/org/org-envelope.ts';
import type { ApiContract } from '../../../protocol/org/deliverables.ts';
import type { OrgEnvelope } from '../../../protocol/org/envelope.ts';

/** The handoff id an external backend uses for its contract: one id, so its second rejection escalates. */
export const EXTERNAL_HANDOFF_ID = 'backend>frontend:api_contract#7';

/** A contract with one endpoint, for story `S-cart` only: SHOP_PRD's checkout story has none. */
export const CART_ONLY_CONTRACT: ApiContract = {
  prd_version: 1,
  endpoints: [
    { id: 'x', method: 'GET', path: '/x', story_ids: ['S-cart'], response_schema: { type: 'object', properties: {} } },
  ],
};

/**
 * An external agent's `handoff_notification` of an API contract from `backend` to `frontend`,
 * sent inline (its location is outside the workspace), round `n` of {@link EXTERNAL_HANDOFF_ID}.
 *
 * @example
 * h.send([externalContractHandoff({ prdId: h.projectId, sprintId: 'sprint-1', at: h.clock.now(), n: 1 })]);
 */
export function externalContractHandoff(options: {
  prdId: string;
  sprintId: string;
  at: number;
  n: number;
  deliverable?: unknown;
}): OrgEnvelope {
  return orgMessage({
    from: 'backend',
    to: 'frontend',
    type: 'request',
    priority: 'high',
    payload: {
      task_id: 'contract',
      content: {
        kind: 'handoff_notification',
        handoff_id: EXTERNAL_HANDOFF_ID,
        deliverable_type: 'api_contract',
        schema_version: '1.0',
        location: 'external://contract',
        self_assessment: { complete: true, confidence: 0.5, checks: [] },
        deliverable: options.deliverable ?? CART_ONLY_CONTRACT,
      },
    },
    prdId: options.prdId,
    sprintId: options.sprintId,
    seed: ['external', options.n],
    at: options.at,
  });
}
