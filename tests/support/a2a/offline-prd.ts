import { SHOP_PRD } from '../org/org-harness.ts';

/**
 * A PRD whose storage constraint clashes with the decision a first project (`SHOP_PRD`) records
 * (server-only): its project escalates to the user, an A2A task `input-required`.
 */
export const OFFLINE_PRD = {
  ...SHOP_PRD,
  features: [{ ...SHOP_PRD.features[0]!, constraints: [{ topic: 'storage', value: 'offline-first' }] }],
};
