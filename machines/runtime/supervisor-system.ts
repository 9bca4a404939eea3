import type { AnyActorLogic } from 'xstate';
import type { z } from 'zod';
import type { Address, EnvelopeAddressing } from '../../protocol/runtime/envelope-addressing.ts';
import type { RoutableEnvelope, Route, RoutingError } from '../../protocol/runtime/routing.ts';
import type { VersionRule } from '../../protocol/runtime/version-rule.ts';
import type { AckOptions } from './ack-delivery.ts';

/**
 * What the supervisor needs to know of one multi-agent system: how to validate its envelopes,
 * which edges exist, its agents (spawned by name, the child id is the name), its topics and the
 * addresses outside the runtime (USER) whose envelopes are journaled and handed to the host.
 * Its envelopes stay its spec's own: `addressing` says where their id, sender, receivers and
 * kind are, so the supervisor routes and journals them verbatim.
 */
export interface SystemDefinition<E extends RoutableEnvelope = RoutableEnvelope> {
  name: string;
  /** Validates an envelope together with its payload. */
  envelope: z.ZodType<E>;
  /** Where the envelope keeps its id, sender, receivers, kind, ...; spec 000's fields (`DEFAULT_ADDRESSING`) when absent. */
  addressing?: EnvelopeAddressing;
  /** The protocol version rule (spec 002), checked before the schema; no version check when absent. */
  versionRule?: VersionRule;
  routes: readonly Route[];
  /**
   * A system's own rule, checked after the schema and before the routing table: an error (its
   * code `outside_channel`, a message that says how to send it instead) refuses the envelope.
   * Spec 004's channels are one: sender and receivers must share a channel that carries the type.
   * Its `issues` name the field (`destination_agent`).
   */
  admissionRule?: (
    envelope: E,
    address: Readonly<Address>,
  ) => Pick<RoutingError, 'code' | 'message' | 'issues'> | undefined;
  agents: Readonly<Record<string, AnyActorLogic>>;
  /** Input of each spawned agent; `{ name }` when absent. */
  agentInput?: (name: string) => unknown;
  /** topic name -> subscribed agents. A publish edge is `from -> topic:<name> : data_type`. */
  topics?: Readonly<Record<string, readonly string[]>>;
  /** Addresses that are not actors (USER): routed envelopes to them are emitted, not delivered. */
  externals?: readonly string[];
  /** The agent that hears every `agent.report` (the pipeline's orchestrator), if any. */
  orchestrator?: string;
  /** The journal partition of an envelope (its run, its session). */
  partitionOf: (envelope: E) => string;
  /**
   * Whether an agent's completed output (an envelope or an array of them) is routed as sent by
   * it. Default true; false where an orchestrator checks outputs and releases them itself.
   */
  routeAgentOutputs?: boolean;
  /** How long a requester waits for a response; default 30 s. */
  requestTimeoutMs?: number;
  /**
   * When an agent receives an envelope. `durable` (the default): once its journal append is on
   * disk, for agents whose work has effects outside the runtime (a tool that writes, a payment).
   * `pipelined`: as soon as the append is issued, so the disk write overlaps the agent's work;
   * for agents that only compute (a model call, a calculation). Either way nothing that depends
   * on the envelope leaves the runtime before it is durable: envelopes to external addresses and
   * `supervisor.routed` wait for the disk, and whatever an agent reports or sends waits until
   * every envelope delivered to it is durable (the output-commit rule). If the append fails, the
   * delivery is revoked: the agent's work on it is cancelled and what it produced meanwhile is
   * refused.
   */
  delivery?: 'durable' | 'pipelined';
  /**
   * Acknowledged delivery (spec 004) of envelopes whose `addressing.ack` says they need an ack:
   * each receiver acks when it starts on the envelope; without an ack in time it is redelivered
   * under the same id with backoff, then reported undeliverable (`deadLetter`). Without
   * `addressing.ack` no envelope is tracked and routing costs nothing more.
   */
  acks?: AckOptions;
}
