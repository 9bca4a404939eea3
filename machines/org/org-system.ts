import type { AnyActorLogic } from 'xstate';
import type { KnowledgeIds } from '../../actors/org/knowledge-ids.ts';
import type { OpenRequests } from '../../actors/org/open-requests.ts';
import type { AckOptions } from '../runtime/ack-delivery.ts';
import { agentMachine, type AgentBrainLogic } from '../runtime/agent.ts';
import type { SystemDefinition } from '../runtime/supervisor-system.ts';
import { orgChannelRule } from '../../protocol/org/channel-rule.ts';
import { routesOfChannels } from '../../protocol/org/channels.ts';
import { ORG_ADDRESSING, OrgEnvelopeSchema, type OrgAgent, type OrgEnvelope } from '../../protocol/org/envelope.ts';
import { orgDeadLetter } from './org-dead-letter.ts';
import { projectRunMachine } from './project-run.ts';

/** The run actor's name: a child of the supervisor that no envelope can address (not an OrgAgent). */
export const PROJECT_RUN = 'project';

export interface OrgSystemOptions {
  /** The brain of each agent (orgBrain offline, or model-backed). */
  brains: Readonly<Record<OrgAgent, AgentBrainLogic>>;
  /** Acknowledged delivery's backoff and jitter (tests seed it). */
  acks?: Omit<AckOptions, 'deadLetter'>;
  /** How long one brain may take on one message; default 30 s. */
  agentTimeoutMs?: number;
  /** The projects' open requests: a response must name one sent to its sender (checked after the channels). */
  requests?: OpenRequests;
  /** The owners' knowledge-graph node ids: `context.knowledge_graph_refs` must name existing nodes (checked before `requests`, which note what they admit). */
  knowledge?: KnowledgeIds;
}

/**
 * The org system (spec 004) as the supervisor runs it: the v2.0 envelope routed verbatim, the
 * routing table derived from the five channels, the channel rule checked first (its own refusal
 * code `outside_channel`), then the knowledge-graph nodes a message cites (`unknown_reference`)
 * and a response's open request (`unknown_correlation`), each refusal naming its field;
 * every request and every message asking for it acknowledged by the
 * runtime on the receiver's behalf, redelivered, then escalated to chief-orchestration (the dead
 * letter); mailboxes ordered critical before high before medium before low.
 *
 * @example
 * const system = orgSystem({ brains: offlineOrgBrains(workspaceOf) });
 */
export function orgSystem(options: OrgSystemOptions): SystemDefinition {
  const agents: Record<string, AnyActorLogic> = { [PROJECT_RUN]: projectRunMachine };
  for (const [name, brain] of Object.entries(options.brains))
    agents[name] = agentMachine.provide({ actors: { brain } });
  const priority = { path: 'envelope.priority', scale: ORG_ADDRESSING.priority!.scale };
  return {
    name: 'org',
    envelope: OrgEnvelopeSchema,
    addressing: ORG_ADDRESSING,
    routes: routesOfChannels(),
    agents,
    agentInput: (name) =>
      name === PROJECT_RUN
        ? { name }
        : { name, priority, ...(options.agentTimeoutMs ? { timeoutMs: options.agentTimeoutMs } : {}) },
    orchestrator: PROJECT_RUN,
    partitionOf: (envelope) => (envelope as OrgEnvelope).context?.prd_id ?? 'unassigned',
    admissionRule: (envelope, address) =>
      orgChannelRule(envelope as OrgEnvelope, address) ??
      options.knowledge?.check(envelope as OrgEnvelope) ??
      options.requests?.admit(envelope as OrgEnvelope),
    acks: { ...options.acks, deadLetter: orgDeadLetter },
  };
}
