import { z } from 'zod';
import type { Route } from '../runtime/routing.ts';
import { OrgAgentSchema, type OrgAgent } from './envelope.ts';

/** Spec 004's four message types, as the routing table names them (a route's `data_type`). */
export const OrgMessageTypeSchema = z.enum(['request', 'response', 'notification', 'escalation']);
export type OrgMessageType = z.infer<typeof OrgMessageTypeSchema>;

/**
 * One row of spec 004's Communication Channels table, as data. `hub` (hub-and-spoke) and
 * `publisher` (pub-sub) name the centre; `participants` are everyone on the channel (the
 * publisher's explicit subscriber list being the others). `types` are the message types the
 * pattern carries.
 */
export const OrgChannelSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z-]*$/),
  name: z.string().min(1),
  pattern: z.enum(['hub-and-spoke', 'peer-to-peer', 'pub-sub', 'request-response']),
  participants: z.array(OrgAgentSchema).min(2),
  hub: OrgAgentSchema.optional(),
  publisher: OrgAgentSchema.optional(),
  types: z.array(OrgMessageTypeSchema).min(1),
  use: z.string().min(1),
});
export type OrgChannel = z.infer<typeof OrgChannelSchema>;

const ENGINEERING: OrgAgent[] = ['frontend', 'backend', 'database', 'devops'];
const EVERYONE_BUT_CHIEF = OrgAgentSchema.options.filter((agent) => agent !== 'chief-orchestration');

/**
 * Spec 004's five channels. Orchestration Bus: every agent and the chief, each message with the
 * chief at one end. Product Broadcast: `product` publishes to its explicit subscribers, who may
 * only answer its requests. Quality Loop: requests and responses only, `sdte` at one end.
 */
export const ORG_CHANNELS: readonly OrgChannel[] = Object.freeze(
  [
    {
      id: 'orchestration-bus',
      name: 'Orchestration Bus',
      pattern: 'hub-and-spoke',
      hub: 'chief-orchestration',
      participants: ['chief-orchestration', ...EVERYONE_BUT_CHIEF],
      types: ['request', 'response', 'notification', 'escalation'],
      use: 'Task assignment, escalation, status',
    },
    {
      id: 'engineering-mesh',
      name: 'Engineering Mesh',
      pattern: 'peer-to-peer',
      participants: ENGINEERING,
      types: ['request', 'response', 'notification'],
      use: 'API contracts, schema, deploys',
    },
    {
      id: 'product-broadcast',
      name: 'Product Broadcast',
      pattern: 'pub-sub',
      publisher: 'product',
      participants: ['product', 'frontend', 'backend', 'database', 'devops', 'sdte', 'growth'],
      types: ['request', 'response', 'notification'],
      use: 'PRD updates, priority changes',
    },
    {
      id: 'quality-loop',
      name: 'Quality Loop',
      pattern: 'request-response',
      hub: 'sdte',
      participants: ['sdte', ...ENGINEERING],
      types: ['request', 'response'],
      use: 'Bugs, test results, verification',
    },
    {
      id: 'growth-channel',
      name: 'Growth Channel',
      pattern: 'peer-to-peer',
      participants: ['growth', 'product', 'frontend'],
      types: ['request', 'response', 'notification'],
      use: 'Experiments, flags, results',
    },
  ].map((channel) => OrgChannelSchema.parse(channel)),
);

/**
 * Whether `channel` carries a message of `type` from `from` to `to` by its pattern: a hub (or a
 * request-response loop's centre) is at one end; a publisher sends, its subscribers only answer.
 */
export function channelCarries(channel: OrgChannel, from: OrgAgent, to: OrgAgent, type: OrgMessageType): boolean {
  if (from === to || !channel.types.includes(type)) return false;
  if (!channel.participants.includes(from) || !channel.participants.includes(to)) return false;
  switch (channel.pattern) {
    case 'hub-and-spoke':
    case 'request-response':
      return from === channel.hub || to === channel.hub;
    case 'pub-sub':
      return type === 'response' ? to === channel.publisher : from === channel.publisher;
    case 'peer-to-peer':
      return true;
  }
}

/**
 * The channel a message takes from `from` to `to` (the first in the table that carries it), or
 * `undefined` when they share none. An escalation always takes the Orchestration Bus to the
 * chief, the chief's own included (a dead letter of the chief's request).
 */
export function channelFor(from: OrgAgent, to: OrgAgent, type: OrgMessageType): OrgChannel | undefined {
  if (type === 'escalation') return to === 'chief-orchestration' ? ORG_CHANNELS[0] : undefined;
  return ORG_CHANNELS.find((channel) => channelCarries(channel, from, to, type));
}

/** The routing table the channels allow: one edge per (sender, receiver, type) some channel carries. */
export function routesOfChannels(): Route[] {
  const routes: Route[] = [];
  for (const from of OrgAgentSchema.options)
    for (const to of OrgAgentSchema.options)
      for (const type of OrgMessageTypeSchema.options)
        if (channelFor(from, to, type)) routes.push({ from, to, data_type: type });
  return routes;
}
