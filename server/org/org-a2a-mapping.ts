import { z } from 'zod';
import { CreateProjectBodySchema, ResolveEscalationBodySchema } from '../../protocol/org/http-bodies.ts';
import { ConflictError } from '../../protocol/runtime/runtime-error.ts';
import type { A2aInput, A2aMapping } from '../a2a/a2a-mapping.ts';
import { parseInput } from '../a2a/parse-input.ts';
import type { HostedRun } from '../run-host/hosted-run.ts';
import { producedArtifacts, projectTaskView } from './org-a2a-view.ts';
import type { OrgProjects } from './org-projects.ts';

/** A reply to a project waiting for the user: `POST .../escalations/:eid/resolve`'s body, naming the escalation or not. */
const A2aResolveSchema = ResolveEscalationBodySchema.extend({ escalation_id: z.string().min(1).optional() });

function replyOf(input: A2aInput) {
  return input.data !== undefined
    ? parseInput(A2aResolveSchema, input.data, 'data')
    : parseInput(A2aResolveSchema, input.text === undefined ? undefined : { decision: input.text }, 'text');
}

const EXAMPLE_PRD = {
  prd: {
    title: 'Shop',
    features: [{ id: 'cart', title: 'Shopping cart items', acceptance_criteria: ['Add an item', 'Remove an item'] }],
    priority: 'high',
  },
};

/**
 * The product org over A2A: a `data` part with `POST /org/projects`'s body (`{ prd, sprint_id? }`)
 * starts a project, which is the task's context; its deliverables (stories, API contract, schema,
 * test plan, ...) are artifacts, each version replayed from the project's journal in turn; an
 * escalation sent to the user is `input-required`, and a reply (text, or
 * `{ decision, apply_recommendation?, escalation_id? }`) resolves it as
 * `POST /org/projects/:id/escalations/:eid/resolve` does; a project done is `completed`. Not
 * cancelable: spec 004 has no way to stop a project.
 */
export function orgA2a(projects: OrgProjects): A2aMapping {
  const produced = async (owner: string, projectId: string) => {
    const ws = projects.workspace(await projects.own(owner, projectId));
    return producedArtifacts(ws, await projects.records(projectId));
  };
  return {
    description:
      'Spec 004: from a PRD, eight agents (chief-orchestration, product, backend, database, frontend, sdte, growth, devops) hand off stories, an API contract, a schema, a test plan, screens, experiments and a deploy plan; conflicts they cannot settle come to you.',
    skills: [
      {
        id: 'org-project',
        name: 'Run a product project',
        description:
          'Send a data part `{ prd: { title, features: [{ id, title, acceptance_criteria }] }, sprint_id? }`; deliverables come as artifacts; reply to an escalation with your decision.',
        tags: ['product', 'prd', 'handoff', 'multi-agent'],
        examples: [
          JSON.stringify(EXAMPLE_PRD),
          '{"decision": "Go offline-first from now on.", "apply_recommendation": true}',
        ],
      },
    ],
    parse: (input) => parseInput(CreateProjectBodySchema, input.data, 'data'),
    async start({ owner, request }) {
      const { project_id } = await projects.create(owner, request as z.infer<typeof CreateProjectBodySchema>);
      return { ref: project_id, contextId: project_id };
    },
    async view(owner, projectId) {
      const view = await projects.view(owner, projectId);
      return projectTaskView(view.status, view.escalations, await produced(owner, projectId));
    },
    produced,
    async follow(owner, projectId, onChange) {
      const ws = projects.workspace(await projects.own(owner, projectId));
      let stopped = false;
      let idleWait = false;
      const runs = new Map<HostedRun, () => void>();
      // A project that rested and woke runs on a new run: each is watched (as the SSE route does).
      const changed = () => {
        if (stopped) return;
        const run = projects.liveRun(projectId);
        if (run && !runs.has(run)) runs.set(run, run.watch(changed));
        if (!idleWait) {
          idleWait = true;
          void projects.idle(projectId).then(() => {
            idleWait = false;
            if (!stopped) onChange();
          });
        }
        onChange();
      };
      const unwatch = ws.state.watch('project/', changed);
      changed();
      return () => {
        stopped = true;
        unwatch();
        for (const stop of runs.values()) stop();
      };
    },
    checkReply: (input) => void replyOf(input),
    async resume(owner, projectId, input) {
      const reply = replyOf(input);
      const { escalations } = await projects.view(owner, projectId);
      const waiting = escalations
        .filter((e) => e.status === 'awaiting_user')
        .sort((a, b) => a.created_at.localeCompare(b.created_at));
      const escalation = reply.escalation_id
        ? waiting.find((e) => e.escalation_id === reply.escalation_id)
        : waiting[0];
      if (!escalation)
        throw new ConflictError(
          'not_awaiting_user',
          reply.escalation_id
            ? `Escalation ${reply.escalation_id} does not wait for you; name one of: ${waiting.map((e) => e.escalation_id).join(', ')}.`
            : 'No escalation of this project waits for you.',
        );
      const { decision, apply_recommendation } = reply;
      await projects.resolve(owner, projectId, escalation.escalation_id, { decision, apply_recommendation });
    },
  };
}
