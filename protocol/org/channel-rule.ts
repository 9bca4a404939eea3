import type { Address } from '../runtime/envelope-addressing.ts';
import type { RoutingError } from '../runtime/routing.ts';
import { channelFor, OrgMessageTypeSchema } from './channels.ts';
import { OrgAgentSchema, type OrgEnvelope } from './envelope.ts';

type Refusal = Pick<RoutingError, 'code' | 'message' | 'issues'>;

/**
 * Spec 004's rules a message must meet before it is routed (the org system's `admissionRule`):
 * its sender and each receiver share a channel that carries its type (`outside_channel`
 * otherwise; an escalation goes only to chief-orchestration), and a response names the message
 * it answers in `context.related_messages[0]`.
 *
 * @example
 * orgChannelRule(envelope, { sender: 'growth', receivers: 'database', kind: 'request' } as Address);
 * // { code: 'outside_channel', message: 'growth and database share no channel ...' }
 */
export function orgChannelRule(envelope: OrgEnvelope, address: Readonly<Address>): Refusal | undefined {
  const type = OrgMessageTypeSchema.parse(address.kind);
  const sender = OrgAgentSchema.parse(address.sender);
  const receivers = typeof address.receivers === 'string' ? [address.receivers] : address.receivers;
  for (const receiver of receivers) {
    if (channelFor(sender, OrgAgentSchema.parse(receiver), type)) continue;
    const message =
      type === 'escalation'
        ? `An escalation always goes to chief-orchestration first, not to ${receiver}; address it to chief-orchestration.`
        : `${sender} and ${receiver} share no channel that carries a ${type} (spec 004's Communication Channels); ` +
          'send it over a channel both are on, or through chief-orchestration on the Orchestration Bus.';
    return { code: 'outside_channel', message, issues: [{ path: 'destination_agent', message }] };
  }
  if (type === 'response' && !envelope.context?.related_messages?.[0]) {
    const message = 'A response names the message it answers in context.related_messages[0]; add it.';
    return { code: 'invalid_envelope', message, issues: [{ path: 'context.related_messages', message }] };
  }
  return undefined;
}
