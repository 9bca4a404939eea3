import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelFor, routesOfChannels } from '../../../protocol/org/channels.ts';
import { OrgAgentSchema } from '../../../protocol/org/envelope.ts';

const agents = OrgAgentSchema.options;
const types = ['request', 'response', 'notification', 'escalation'] as const;
const ENGINEERING = ['frontend', 'backend', 'database', 'devops'];

/** Spec 004's channel table read directly, row by row, independently of the data in protocol/. */
function specAllows(from: string, to: string, type: string): boolean {
  if (type === 'escalation') return to === 'chief-orchestration';
  if (from === to) return false;
  const bus = from === 'chief-orchestration' || to === 'chief-orchestration';
  const mesh = ENGINEERING.includes(from) && ENGINEERING.includes(to) && type !== 'escalation';
  const subscribers = ['frontend', 'backend', 'database', 'devops', 'sdte', 'growth'];
  const broadcast =
    (from === 'product' && subscribers.includes(to) && type !== 'response') ||
    (to === 'product' && subscribers.includes(from) && type === 'response');
  const quality =
    (type === 'request' || type === 'response') &&
    ((from === 'sdte' && ENGINEERING.includes(to)) || (to === 'sdte' && ENGINEERING.includes(from)));
  const growthPeers = ['growth', 'product', 'frontend'];
  const growth = growthPeers.includes(from) && growthPeers.includes(to);
  return bus || mesh || broadcast || quality || growth;
}

describe('the channel table, both ways', () => {
  const routes = new Set(routesOfChannels().map((r) => `${r.from}>${r.to}:${r.data_type}`));

  it('allows a message exactly when the spec table has a channel for it, and the routing table agrees', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...agents),
        fc.constantFrom(...agents),
        fc.constantFrom(...types),
        (from, to, type) => {
          const allowed = specAllows(from, to, type);
          expect(channelFor(from, to, type) !== undefined).toBe(allowed);
          expect(routes.has(`${from}>${to}:${type}`)).toBe(allowed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('puts each sender and receiver of a carried message among its channel participants', () => {
    for (const from of agents)
      for (const to of agents)
        for (const type of types) {
          const channel = channelFor(from, to, type);
          if (channel) expect(channel.participants).toEqual(expect.arrayContaining([from, to]));
        }
  });
});
