import { fromPromise } from 'xstate';
import { ModelAnswerError } from '../models/forced-tool-call.ts';
import type { OrgAgent, OrgEnvelope } from '../../protocol/org/envelope.ts';
import type { AgentBrainInput } from '../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../protocol/runtime/routing.ts';
import { readVerdict, receiveHandoff } from './handoff-steps.ts';
import type { OrgRole } from './org-role.ts';
import type { OrgProducers } from './producers/org-producers.ts';
import { backendRole } from './roles/backend-role.ts';
import { chiefRole } from './roles/chief-role.ts';
import { databaseRole } from './roles/database-role.ts';
import { devopsRole } from './roles/devops-role.ts';
import { frontendRole } from './roles/frontend-role.ts';
import { growthRole } from './roles/growth-role.ts';
import { productRole } from './roles/product-role.ts';
import { sdteRole } from './roles/sdte-role.ts';
import { Turn } from './turn.ts';
import { TurnState } from './turn-state.ts';
import { OrgWorkspace } from './workspace.ts';

/** The offline rules of each agent. */
export const ORG_ROLES: Readonly<Record<OrgAgent, OrgRole>> = {
  'chief-orchestration': chiefRole,
  product: productRole,
  frontend: frontendRole,
  backend: backendRole,
  database: databaseRole,
  devops: devopsRole,
  sdte: sdteRole,
  growth: growthRole,
};

/** Finds a project's workspace by its id (an envelope's `context.prd_id`). */
export type WorkspaceOf = (projectId: string) => OrgWorkspace | undefined | Promise<OrgWorkspace | undefined>;

async function unmetDependencies(turn: Turn, message: OrgEnvelope): Promise<string[]> {
  if (message.message_type === 'escalation') return [];
  const pending = await Promise.all(
    (message.payload.dependencies ?? []).map(async (task) => ((await turn.ws.taskDone(task)) ? undefined : task)),
  );
  return pending.filter((task): task is string => task !== undefined);
}

/**
 * A model's answer refused (`ModelAnswerError`): nothing of it was used. What the turn did before
 * stands (a handoff validated and answered); a request it had not answered gets `failed` with the
 * issues, and the agent escalates to chief-orchestration (`quality`), which passes it to the user.
 */
function refuseAnswer(turn: Turn, error: ModelAnswerError): void {
  const issues = error.issues?.length ? error.issues : [{ path: '', message: error.message }];
  const { message, agent } = turn;
  if (message.message_type === 'request' && !turn.out.some((out) => out.message_type === 'response'))
    turn.respond({ kind: 'task_result', status: 'failed', issues });
  turn.escalate('model-answer-refused', {
    conflict_type: 'quality',
    agents_involved: [agent],
    positions: { [agent]: error.message },
    impact_if_unresolved: `${agent} has not made its deliverable; the work that depends on it waits.`,
    recommended_resolution: 'Send the work again (the model may answer validly), or run the org on its offline brains.',
  });
}

/** {@link handle}, with a refused model answer turned into a failure and an escalation. */
async function handleTurn(role: OrgRole, turn: Turn): Promise<void> {
  try {
    await handle(role, turn);
  } catch (error) {
    if (!(error instanceof ModelAnswerError)) throw error;
    refuseAnswer(turn, error);
  }
}

/** The protocol every agent follows around its role (see {@link orgBrain}). */
async function handle(role: OrgRole, turn: Turn): Promise<void> {
  const { message, ws } = turn;
  if (message.message_type === 'escalation') return role.onEscalation?.(turn);
  const content = message.payload.content;
  const kind = String(content['kind'] ?? '');
  if (message.message_type === 'request' && (await unmetDependencies(turn, message)).length > 0) {
    await ws.hold(turn.agent, message);
    return;
  }
  if (kind === 'handoff_notification') {
    const receipt = await receiveHandoff(turn);
    if (receipt.accepted) await role.onAccepted?.(turn, receipt);
    return;
  }
  if (message.message_type === 'response') {
    const own = await readVerdict(turn);
    if (own?.verdict.verdict === 'rejected' && own.verdict.rejections < 2) await role.onRejected?.(turn, own);
    return;
  }
  if (message.message_type === 'request') {
    await role.onTask?.(turn, kind, content);
    if (!turn.out.some((out) => out.message_type === 'response'))
      turn.respond({ kind: 'task_result', status: 'ignored', reason: `${turn.agent} has no task ${kind}` });
    return;
  }
  await role.onNotification?.(turn, content);
}

/** Hands back the held requests whose dependencies are all done now, each handled in its own turn. */
async function releaseHeld(role: OrgRole, turn: Turn): Promise<OrgEnvelope[]> {
  const out: OrgEnvelope[] = [];
  for (const held of await turn.ws.held(turn.agent)) {
    const next = new Turn(turn.agent, held, turn.ws, { produce: turn.produce, signal: turn.signal });
    if ((await unmetDependencies(next, held)).length > 0) continue;
    await turn.ws.release(turn.agent, held.message_id);
    await handleTurn(role, next);
    out.push(...next.out);
  }
  return out;
}

/** What an org agent's brain works with: the projects' workspaces, whom to tell of its turns, how it makes deliverables. */
export interface OrgBrainEnv {
  workspaceOf: WorkspaceOf;
  activity?: TurnActivity | undefined;
  /** The offline rules by default; Claude's forced tool calls with `ANTHROPIC_API_KEY` (see orgProducersFor). */
  produce?: OrgProducers | undefined;
}

/**
 * The brain of one org agent: for each delivered v2.0 message it answers what must be answered
 * (a request gets a response naming it), validates handoffs, holds a request until its
 * `payload.dependencies` are done, and runs the agent's role, whose deliverables come from
 * `env.produce`; it returns the messages to send, which the supervisor routes as sent by the agent.
 *
 * @example
 * const brain = orgBrain('backend', ORG_ROLES.backend, { workspaceOf: (id) => workspaces.get(id) });
 */
export function orgBrain(agent: OrgAgent, role: OrgRole, env: OrgBrainEnv) {
  const { workspaceOf, activity, produce } = env;
  return fromPromise<OrgEnvelope[], AgentBrainInput>(async ({ input, signal }) => {
    const message = (input.input as DeliveredMessage).envelope as OrgEnvelope;
    const projectId = message.context?.prd_id;
    if (projectId === undefined) throw new Error('The message names no project; name one in context.prd_id.');
    activity?.(projectId, 1);
    try {
      const ws = await workspaceOf(projectId);
      if (!ws) throw new Error(`No project ${projectId} is open; name an existing project in context.prd_id.`);
      // Handled once per receiver: a message handed over again gets what was sent the first time.
      const done = await ws.turn(agent, message.message_id);
      if (done) return done;
      // Its workspace writes land with its record in one write: a turn cut off left nothing.
      const view = new TurnState(ws.state);
      const turn = new Turn(agent, message, ws.withState(view), { ...(produce ? { produce } : {}), signal });
      await handleTurn(role, turn);
      const out = [...turn.out, ...(await releaseHeld(role, turn))];
      await view.commit(agent, [OrgWorkspace.turnWrite(agent, message.message_id, out)]);
      return out;
    } finally {
      activity?.(projectId, -1);
    }
  });
}

/** Told when a brain starts (+1) and ends (-1) a turn of a project: how a host knows its agents are idle. */
export type TurnActivity = (projectId: string, delta: 1 | -1) => void;
