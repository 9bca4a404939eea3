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
    .get('/:id', async (c) => c.json(await researchView(await service.get(userIdOf(c), c.req.param('id')))))
    .get('/:id/hypotheses', async (c) =>
      c.json({ hypotheses: await hypothesesView(await service.get(userIdOf(c), c.req.param('id'))) }),
    )
    .get('/:id/matches', async (c) =>
      c.json({ matches: await matchesView(await service.get(userIdOf(c), c.req.param('id'))) }),
    )
    .get('/:id/tasks', async (c) => {
      const research = await service.get(userIdOf(c), c.req.param('id'));
      return c.json({ tasks: tasksView(research, service.timesOf(research.researchId)) });
    })
    .get('/:id/memory', async (c) => {
      const { entry_type } = readQuery(c, MemoryQuerySchema);
      return c.json({ entries: await memoryView(await service.get(userIdOf(c), c.req.param('id')), entry_type) });
    })
    .post('/:id/guidance', async (c) => {
      const research = await service.get(userIdOf(c), c.req.param('id'));
      const { text } = await readJsonBody(c, GuidanceBodySchema);
      return c.json(await addGuidance(research, text), 202);
    })
    .get('/:id/overview', async (c) => c.json(await overviewView(await service.get(userIdOf(c), c.req.param('id')))))
    .post('/:id/stop', async (c) => {
      const research = await service.get(userIdOf(c), c.req.param('id'));
      void research.run.stop();
      return c.json({ research_id: research.researchId, state: 'stopping' }, 202);
    })
    .get('/:id/events', async (c) => {
      const research = await service.get(userIdOf(c), c.req.param('id'));
      const untilSettled = readQuery(c, EventsQuerySchema).until === 'settled';
      const queue: ResearchEvent[] = [];
      let wake: (() => void) | undefined;
      const stop = service.watch(research.researchId, (event) => {
        queue.push(event);
        wake?.();
      });
      return streamSSE(c, async (stream) => {
        stream.onAbort(stop);
        const record = research.run.record;
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
