import { describe, expect, it } from 'vitest';
import { channelFor, ORG_CHANNELS, routesOfChannels } from '../../../../protocol/org/channels.ts';

describe('ORG_CHANNELS', () => {
  it('holds the five channels of spec 004 with their patterns', () => {
    expect(ORG_CHANNELS.map((c) => [c.name, c.pattern])).toEqual([
      ['Orchestration Bus', 'hub-and-spoke'],
      ['Engineering Mesh', 'peer-to-peer'],
      ['Product Broadcast', 'pub-sub'],
      ['Quality Loop', 'request-response'],
      ['Growth Channel', 'peer-to-peer'],
    ]);
  });

  it('lets product publish to its subscribers, who may only answer', () => {
    expect(channelFor('product', 'sdte', 'notification')?.id).toBe('product-broadcast');
    expect(channelFor('backend', 'product', 'response')?.id).toBe('product-broadcast');
    expect(channelFor('backend', 'product', 'notification')).toBeUndefined();
    expect(channelFor('database', 'product', 'request')).toBeUndefined();
  });

  it('carries only requests and responses on the Quality Loop, with sdte at one end', () => {
    expect(channelFor('sdte', 'devops', 'request')?.id).toBe('quality-loop');
    expect(channelFor('sdte', 'devops', 'notification')).toBeUndefined();
    expect(channelFor('sdte', 'growth', 'request')).toBeUndefined();
  });

  it('sends every escalation to the chief over the Orchestration Bus, and none elsewhere', () => {
    expect(channelFor('growth', 'chief-orchestration', 'escalation')?.id).toBe('orchestration-bus');
    expect(channelFor('chief-orchestration', 'chief-orchestration', 'escalation')?.id).toBe('orchestration-bus');
    expect(channelFor('growth', 'product', 'escalation')).toBeUndefined();
  });

  it('derives the routing table from the channels, one edge per carried message', () => {
    const routes = routesOfChannels();
    expect(new Set(routes.map((r) => `${r.from}>${r.to}:${r.data_type}`)).size).toBe(routes.length);
    expect(routes).toContainEqual({ from: 'frontend', to: 'database', data_type: 'request' });
    expect(routes).not.toContainEqual({ from: 'growth', to: 'database', data_type: 'request' });
  });
});
