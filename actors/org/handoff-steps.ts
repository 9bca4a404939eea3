import type { ApiContract, DeliverableType, Stories, TestPlan } from '../../protocol/org/deliverables.ts';
import type { OrgAgent } from '../../protocol/org/envelope.ts';
import {
  handoffIdOf,
  HandoffIdSchema,
  HandoffNotificationSchema,
  HandoffVerdictSchema,
  type HandoffVerdict,
} from '../../protocol/org/handoff-messages.ts';
import type { ErrorIssue } from '../../protocol/runtime/http-error.ts';
import { toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import type { Turn } from './turn.ts';
import { validateDeliverable } from './validate-deliverable.ts';
import { parseLocation, type Deliverable } from './workspace.ts';

/**
 * Handoff Protocol steps 1-2 (the sender): the deliverable is complete with a self-assessment, and
 * a `handoff_notification` request names its location and schema version. A new round starts
 * unless `reinitiate` (a fix after a rejection: same handoff id, the fixed version).
 */
export async function initiateHandoff(
  turn: Turn,
  to: OrgAgent,
  deliverable: Deliverable & { location: string },
  options: { reinitiate?: boolean; checks?: string[] } = {},
): Promise<string> {
  const { ws, agent } = turn;
  const previous = await ws.handoffRound(agent, to, deliverable.type);
  const round = options.reinitiate && previous ? previous.round : (previous?.round ?? 0) + 1;
  const handoffId = handoffIdOf(agent, to, deliverable.type, round);
  const envelope = turn.send({
    label: `handoff:${handoffId}:v${deliverable.version}`,
    to,
    type: 'request',
    priority: 'high',
    payload: {
      task_id: `${deliverable.type}-v${deliverable.version}`,
      content: {
        kind: 'handoff_notification',
        handoff_id: handoffId,
        deliverable_type: deliverable.type,
        schema_version: deliverable.schema_version,
        location: deliverable.location,
        self_assessment: {
          complete: true,
          confidence: 0.9,
          checks: options.checks ?? [`valid against ${deliverable.type} ${deliverable.schema_version}`],
        },
      },
    },
  });
  await ws.putHandoffRound(agent, agent, to, deliverable.type, {
    round,
    version: deliverable.version,
    accepted: false,
    notification: envelope.message_id,
  });
  return handoffId;
}

/** What a receiver made of a handoff: accepted (with the deliverable) or rejected. */
export type Receipt =
  { accepted: true; type: DeliverableType; body: unknown; version: number | undefined } | { accepted: false };

/**
 * Handoff Protocol steps 4-6 and 8 (the receiver): validates the deliverable against its
 * registered schema and the project as it stands, answers `accepted` or `rejected` with the
 * specific issues, and at the second rejection of the same handoff escalates to the chief.
 */
export async function receiveHandoff(turn: Turn): Promise<Receipt> {
  const { ws, message, agent } = turn;
  if (message.message_type !== 'request') return { accepted: false };
  const parsed = HandoffNotificationSchema.safeParse(message.payload.content);
  const handoffId = parsed.success
    ? parsed.data.handoff_id
    : String(message.payload.content['handoff_id'] ?? message.message_id);
  let issues: ErrorIssue[];
  let body: unknown;
  let version: number | undefined;
  if (!parsed.success) {
    issues = toErrorIssues(parsed.error.issues).map((i) => ({ ...i, path: `payload.content.${i.path}` }));
  } else {
    const location = parseLocation(parsed.data.location);
    const stored = location ? await ws.deliverable(location.type as DeliverableType, location.version) : undefined;
    body = parsed.data.deliverable ?? stored?.body;
    version = stored?.version;
    const [prd, stories, contract, testPlan] = await Promise.all([
      ws.prd(),
      ws.deliverable<Stories>('stories'),
      ws.deliverable<ApiContract>('api_contract'),
      ws.deliverable<TestPlan>('test_plan'),
    ]);
    issues =
      body === undefined
        ? [{ path: 'payload.content.location', message: `nothing is stored at ${parsed.data.location}` }]
        : validateDeliverable(parsed.data.deliverable_type, parsed.data.schema_version, body, {
            prd: prd.prd,
            stories: stories?.body,
            contract: contract?.body,
            testPlan: testPlan?.body,
          });
  }
  const rejections = (await ws.rejections(handoffId)) + (issues.length > 0 ? 1 : 0);
  if (issues.length > 0) await ws.setRejections(agent, handoffId, rejections);
  const verdict: HandoffVerdict = {
    kind: 'handoff_response',
    handoff_id: handoffId,
    verdict: issues.length === 0 ? 'accepted' : 'rejected',
    issues,
    rejections,
  };
  turn.respond(verdict);
  if (issues.length > 0 && rejections >= 2) {
    turn.escalate(`rejected-twice:${handoffId}`, {
      conflict_type: 'quality',
      agents_involved: [message.source_agent, agent],
      positions: {
        [message.source_agent]: `handed off ${parsed.success ? parsed.data.deliverable_type : 'a deliverable'} as complete`,
        [agent]: `rejected it twice: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      },
      impact_if_unresolved: `${agent} cannot begin work that depends on this deliverable.`,
      recommended_resolution: `Have ${message.source_agent} address: ${issues[0]!.message}`,
    });
  }
  if (issues.length > 0 || !parsed.success) return { accepted: false };
  await ws.markTaskDone(agent, parsed.data.deliverable_type);
  return { accepted: true, type: parsed.data.deliverable_type, body, version };
}

/** A verdict on one of this agent's own handoffs (others, an external agent's say, are not its to fix). */
export interface OwnVerdict {
  verdict: HandoffVerdict;
  to: OrgAgent;
  type: DeliverableType;
}

/** Reads a `handoff_response` (step 5/6 seen by the sender) and records an acceptance. */
export async function readVerdict(turn: Turn): Promise<OwnVerdict | undefined> {
  const { ws, message, agent } = turn;
  if (message.message_type !== 'response') return undefined;
  const verdict = HandoffVerdictSchema.safeParse(message.payload.content);
  const id = verdict.success ? HandoffIdSchema.safeParse(verdict.data.handoff_id) : undefined;
  if (!verdict.success || !id?.success || id.data.from !== agent) return undefined;
  const { to, type, round } = id.data;
  const current = await ws.handoffRound(agent, to, type);
  if (!current || current.round !== round) return undefined;
  if (verdict.data.verdict === 'accepted')
    await ws.putHandoffRound(agent, agent, to, type, { ...current, accepted: true });
  return { verdict: verdict.data, to, type: type as DeliverableType };
}
