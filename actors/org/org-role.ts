import type { OwnVerdict, Receipt } from './handoff-steps.ts';
import type { Turn } from './turn.ts';

/**
 * What one agent of the org system does beyond the protocol every agent follows (answer
 * requests, validate handoffs, hold work on its dependencies): its own rules, each producing real
 * deliverables. Every hook is optional.
 */
export interface OrgRole {
  /** A request assigning work (`content.kind` names it: `plan_prd`, `plan_deploy`, ...). */
  onTask?(turn: Turn, kind: string, content: Record<string, unknown>): Promise<void>;
  /** A handoff this agent received and accepted: it begins work on it. */
  onAccepted?(turn: Turn, receipt: Extract<Receipt, { accepted: true }>): Promise<void>;
  /** One of its own handoffs rejected for the first time: fix and re-initiate. */
  onRejected?(turn: Turn, verdict: OwnVerdict): Promise<void>;
  /** A notification (an announcement, a decision to check, an escalation routed to it). */
  onNotification?(turn: Turn, content: Record<string, unknown>): Promise<void>;
  /** An escalation (only the chief gets them). */
  onEscalation?(turn: Turn): Promise<void>;
}
