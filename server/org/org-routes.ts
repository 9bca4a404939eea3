import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { KnowledgeGraph } from '../../actors/org/knowledge-graph.ts';
import { encodeFileName } from '../../actors/runtime/safe-file-name.ts';
import { OrgEnvelopeSchema, type OrgEnvelope } from '../../protocol/org/envelope.ts';
import {
  AmendPrdBodySchema,
  CreateProjectBodySchema,
  ResolveEscalationBodySchema,
} from '../../protocol/org/http-bodies.ts';
import { HandoffNotificationSchema, HandoffVerdictSchema } from '../../protocol/org/handoff-messages.ts';
import { KnowledgeQuerySchema } from '../../protocol/org/knowledge.ts';
import { isRoutedRecord } from '../../protocol/runtime/ack-record.ts';
import { NotFoundError, toErrorIssues, ValidationError } from '../../protocol/runtime/runtime-error.ts';
import { userIdOf } from '../auth.ts';
import { readJsonBody } from '../json-body.ts';
import type { OrgProjects } from './org-projects.ts';

/**
 * Checks that a body is a v2.0 envelope naming a project (400 naming the field); the rest (its
 * channel, the nodes it cites, the request it answers) the supervisor checks, and journals.
 */
function checkEnvelope(body: unknown): OrgEnvelope {
  const parsed = OrgEnvelopeSchema.safeParse(body);
  if (!parsed.success) {
    const issues = toErrorIssues(parsed.error.issues);
    throw new ValidationError(`Invalid envelope: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  if (!parsed.data.context?.prd_id)
    throw new ValidationError('Name the project in context.prd_id.', [{ path: 'context.prd_id', message: 'Required' }]);
  // A project id names a file: one too long is refused here, naming the envelope's field.
  encodeFileName(parsed.data.context.prd_id, 'context.prd_id');
  return parsed.data;
}

/** What an SSE watcher hears of an envelope: always `message`, and `handoff` or `escalation` when it is one. */
function sseEventsOf(envelope: OrgEnvelope): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [{ event: 'message', data: envelope }];
  if (envelope.message_type === 'escalation')
    events.push({ event: 'escalation', data: { escalation_id: envelope.message_id, ...envelope.payload } });
  else {
    const notice = HandoffNotificationSchema.safeParse(envelope.payload.content);
    const verdict = HandoffVerdictSchema.safeParse(envelope.payload.content);
    if (notice.success)
      events.push({ event: 'handoff', data: { handoff_id: notice.data.handoff_id, state: 'notified' } });
    if (verdict.success)
      events.push({
        event: 'handoff',
        data: { handoff_id: verdict.data.handoff_id, state: verdict.data.verdict, issues: verdict.data.issues },
      });
  }
  return events;
}

/**
 * The org system's routes (issue 14), mounted at `/org` behind bearer auth: projects, their
 * messages, handoffs and escalations, the user's knowledge graph, SSE, PRD amendments and
 * external agents' messages.
 */
export function orgRoutes(projects: OrgProjects, knowledgeOf: (owner: string) => KnowledgeGraph) {
  return new Hono()
    .post('/projects', async (c) => {
      const body = await readJsonBody(c, CreateProjectBodySchema);
      return c.json(await projects.create(userIdOf(c), body), 201);
    })
    .get('/projects/:id', async (c) => c.json(await projects.view(userIdOf(c), c.req.param('id'))))
    .get('/projects/:id/messages', async (c) => c.json(await projects.messages(userIdOf(c), c.req.param('id'))))
    .get('/projects/:id/handoffs', async (c) => {
      const { handoffs } = await projects.view(userIdOf(c), c.req.param('id'));
      return c.json({ handoffs });
    })
    .get('/projects/:id/escalations', async (c) => {
      const { escalations } = await projects.view(userIdOf(c), c.req.param('id'));
      return c.json({ escalations });
    })
    .post('/projects/:id/escalations/:eid/resolve', async (c) => {
      const body = await readJsonBody(c, ResolveEscalationBodySchema);
      return c.json(await projects.resolve(userIdOf(c), c.req.param('id'), c.req.param('eid'), body));
    })
    .patch('/projects/:id/prd', async (c) => {
      const body = await readJsonBody(c, AmendPrdBodySchema);
      return c.json(await projects.amend(userIdOf(c), c.req.param('id'), body), 202);
    })
    .post('/messages', async (c) => {
      const envelope = checkEnvelope(await readJsonBody(c, z.unknown()));
      return c.json(await projects.deliver(userIdOf(c), envelope), 202);
    })
    .get('/knowledge', async (c) => {
      const parsed = KnowledgeQuerySchema.safeParse(c.req.query());
      if (!parsed.success) throw new ValidationError('Invalid query.', toErrorIssues(parsed.error.issues));
      return c.json({ nodes: await knowledgeOf(userIdOf(c)).query(parsed.data) });
    })
    .get('/knowledge/:node_id', async (c) => {
      const graph = knowledgeOf(userIdOf(c));
      const node = await graph.get(c.req.param('node_id'));
      if (!node) throw new NotFoundError(`Knowledge node ${c.req.param('node_id')}`);
      const all = await graph.query();
      const incoming = all.flatMap((n) =>
        n.relations.filter((r) => r.to === node.node_id).map((r) => ({ type: r.type, from: n.node_id })),
      );
      return c.json({ node, relations: { outgoing: node.relations, incoming } });
    })
    .get('/projects/:id/events', async (c) => {
      const owner = userIdOf(c);
      const id = c.req.param('id');
      await projects.own(owner, id);
      const untilSettled = c.req.query('until') === 'settled';
      return streamSSE(c, async (stream) => {
        const seen = new Set<string>();
        const write = async (envelope: OrgEnvelope) => {
          if (seen.has(envelope.message_id)) return;
          seen.add(envelope.message_id);
          for (const { event, data } of sseEventsOf(envelope))
            await stream.writeSSE({ event, data: JSON.stringify(data) });
        };
        for (const record of await projects.records(id))
          if (isRoutedRecord(record)) await write(record.envelope as OrgEnvelope);
        const queue: OrgEnvelope[] = [];
        let wake: (() => void) | undefined;
        const watched = new Set<() => void>();
        // A project that rested and woke runs on a new run: each one is watched.
        let watchedRun: unknown;
        const watch = () => {
          const run = projects.liveRun(id);
          if (!run || run === watchedRun) return;
          watchedRun = run;
          watched.add(
            run.watch((event) => {
              if (event.type !== 'message') return;
              queue.push(event.data as OrgEnvelope);
              wake?.();
            }),
          );
        };
        stream.onAbort(() => watched.forEach((stop) => stop()));
        for (;;) {
          watch();
          while (queue.length > 0) await write(queue.shift()!);
          if (stream.aborted) return;
          const view = await projects.view(owner, id);
          if (untilSettled && view.status !== 'working') {
            for (const record of await projects.records(id))
              if (isRoutedRecord(record)) await write(record.envelope as OrgEnvelope);
            await stream.writeSSE({ event: 'settled', data: JSON.stringify({ status: view.status }) });
            return;
          }
          await Promise.race([
            new Promise<void>((resolve) => (wake = resolve)),
            projects.idle(id),
            new Promise<void>((resolve) => setTimeout(resolve, 1_000)),
          ]);
        }
      });
    });
}
