import { Hono } from 'hono';
import { z } from 'zod';
import { ConflictError } from '../../protocol/runtime/runtime-error.ts';
import {
  CancelRequestSchema,
  ClarificationRequestSchema,
  TaskRequestSchema,
} from '../../protocol/tiers/task-request.ts';
import { userIdOf } from '../auth.ts';
import { readJsonBody, readQuery } from '../json-body.ts';
import { ownTask } from './own-task.ts';
import { taskEventsRoute } from './task-events-route.ts';
import type { TiersService } from './tiers-service-api.ts';

export const BeadsQuerySchema = z.strictObject({ prefix: z.string().min(1).max(200).optional() });

/**
 * The tiers routes of issue 12, mounted at `/tiers` behind bearer auth: a user submits a
 * programming problem, reads its delegation tree, messages and Beads, streams its events,
 * cancels it or answers its question; an external Progress Monitor sends spec `Message`s.
 * Each task is its user's own: another user's answers 404 like a missing one.
 *
 * @example
 * app.route('/tiers', tiersRoutes(service)); // POST /tiers/tasks -> 201 { task_id, status }
 */
export function tiersRoutes(service: TiersService) {
  return new Hono()
    .post('/tasks', async (c) => {
      const request = await readJsonBody(c, TaskRequestSchema);
      return c.json(await service.submit(userIdOf(c), request), 201);
    })
    .get('/tasks', async (c) => c.json({ tasks: await service.list(userIdOf(c)) }))
    .get('/tasks/:id', async (c) => c.json(ownTask(c, await service.get(userIdOf(c), c.req.param('id')))))
    .get('/tasks/:id/messages', async (c) => {
      const messages = ownTask(c, await service.messages(userIdOf(c), c.req.param('id')));
      return c.json({ messages });
    })
    .get('/tasks/:id/beads', async (c) => {
      const { prefix } = readQuery(c, BeadsQuerySchema);
      const entries = ownTask(c, await service.beads(userIdOf(c), c.req.param('id'), prefix));
      return c.json({ entries });
    })
    .get('/tasks/:id/events', taskEventsRoute(service))
    .post('/tasks/:id/cancel', async (c) => {
      const cancellation = await readJsonBody(c, CancelRequestSchema);
      const taskId = c.req.param('id');
      const answer = ownTask(c, await service.cancel(userIdOf(c), taskId, cancellation));
      // A finished task is not cancelled again: its outcome is the answer.
      if ('finished' in answer) return c.json(answer.finished, 200);
      return c.json({ task_id: taskId, accepted: true }, 202);
    })
    .post('/tasks/:id/clarification', async (c) => {
      const { answer } = await readJsonBody(c, ClarificationRequestSchema);
      const taskId = c.req.param('id');
      const result = ownTask(c, await service.clarify(userIdOf(c), taskId, answer));
      if (result === 'not_waiting') {
        throw new ConflictError(
          'not_waiting_for_clarification',
          `Task ${taskId} is not waiting for a clarification; GET /tiers/tasks/${taskId} shows its status and question.`,
        );
      }
      return c.json({ task_id: taskId, accepted: true }, 202);
    })
    .post('/messages', async (c) => {
      // The envelope is checked by the service: the version rule first, then the spec's schema.
      const envelope = await readJsonBody(c, z.unknown());
      return c.json(await service.receive(userIdOf(c), envelope), 202);
    });
}
