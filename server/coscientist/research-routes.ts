import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { addGuidance } from '../../machines/coscientist/research-guidance.ts';
import {
  CreateResearchBodySchema,
  EventsQuerySchema,
  GuidanceBodySchema,
  MemoryQuerySchema,
} from '../../protocol/coscientist/research-body.ts';
import { userIdOf } from '../auth.ts';
import { readJsonBody, readQuery } from '../json-body.ts';
import { SETTLED, type ResearchEvent, type ResearchService } from './research-service.ts';
import { hypothesesView, matchesView, memoryView, overviewView, researchView, tasksView } from './research-views.ts';

/**
 * `/research`: a scientist's goals (issue 13's table). Each route answers for the caller's own
 * goals only; another's is 404.
 */
export function researchRoutes(service: ResearchService) {
  return new Hono()
    .post('/', async (c) =>
      c.json(await service.create(userIdOf(c), await readJsonBody(c, CreateResearchBodySchema)), 201),
    )
    .get('/:id', async (c) => c.json(await service.read(userIdOf(c), c.req.param('id'), researchView)))
    .get('/:id/hypotheses', async (c) =>
      c.json({ hypotheses: await service.read(userIdOf(c), c.req.param('id'), hypothesesView) }),
    )
    .get('/:id/matches', async (c) =>
      c.json({ matches: await service.read(userIdOf(c), c.req.param('id'), matchesView) }),
    )
    .get('/:id/tasks', async (c) => c.json({ tasks: await service.read(userIdOf(c), c.req.param('id'), tasksView) }))
    .get('/:id/memory', async (c) => {
      const { entry_type } = readQuery(c, MemoryQuerySchema);
      const entries = await service.read(userIdOf(c), c.req.param('id'), (r) => memoryView(r, entry_type));
      return c.json({ entries });
    })
    .post('/:id/guidance', async (c) => {
      const { text } = await readJsonBody(c, GuidanceBodySchema);
      return c.json(await service.act(userIdOf(c), c.req.param('id'), (r) => addGuidance(r, text)), 202);
    })
    .get('/:id/overview', async (c) => c.json(await service.read(userIdOf(c), c.req.param('id'), overviewView)))
    .post('/:id/stop', async (c) => {
      const id = c.req.param('id');
      const state = await service.read(userIdOf(c), id, (r) => r.run.record.state);
      if (!SETTLED.has(state) || state === 'awaiting_scientist')
        await service.act(userIdOf(c), id, (r) => void r.run.stop());
      return c.json({ research_id: id, state: state === 'completed' || state === 'stopped' ? state : 'stopping' }, 202);
    })
    .get('/:id/events', async (c) => {
      const id = c.req.param('id');
      const untilSettled = readQuery(c, EventsQuerySchema).until === 'settled';
      const queue: ResearchEvent[] = [];
      let wake: (() => void) | undefined;
      // Watched before the state is read: no change falls between the two.
      const stop = service.events.watch(id, (event) => {
        queue.push(event);
        wake?.();
      });
      const record = await service
        .read(userIdOf(c), id, (r) => r.run.record)
        .catch((error: unknown) => {
          stop();
          throw error;
        });
      return streamSSE(c, async (stream) => {
        stream.onAbort(stop);
        let state: string = record.state;
        await stream.writeSSE({ event: 'state', data: JSON.stringify({ state, iteration: record.iteration }) });
        try {
          while (!stream.aborted && !(untilSettled && SETTLED.has(state))) {
            if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
            for (const event of queue.splice(0)) {
              if (event.event === 'state') state = event.data.state;
              await stream.writeSSE({ event: event.event, data: JSON.stringify(event.data) });
            }
          }
        } finally {
          stop();
        }
      });
    });
}
