import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { RuntimeError } from '../../protocol/runtime/runtime-error.ts';
import { userIdOf } from '../auth.ts';
import { readQuery } from '../json-body.ts';
import { ownTask } from './own-task.ts';
import type { TiersService } from './tiers-service-api.ts';

export const EventsQuerySchema = z.strictObject({ until: z.literal('settled').optional() });

/**
 * `GET /tiers/tasks/:id/events`: Server-Sent Events, one JSON object per `data:` line, named by
 * the event's type: `message` per envelope, `status` per delegation change, `settled` once the
 * task is terminal or waits for the user. Past events come first. With `?until=settled` the
 * stream closes after `settled`; otherwise it stays open until the client leaves.
 */
export function taskEventsRoute(service: TiersService) {
  return async function taskEvents(c: Context) {
    const { until } = readQuery(c, EventsQuerySchema);
    const user = userIdOf(c);
    const taskId = c.req.param('id') ?? '';
    // Asked before the stream opens, so a task that is not the caller's is a plain 404.
    ownTask(c, await service.get(user, taskId));
    const aborted = new AbortController();
    const events = ownTask(
      c,
      service.events(user, taskId, { untilSettled: until === 'settled', signal: aborted.signal }),
    );
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => aborted.abort());
      try {
        for await (const event of events) {
          if (stream.aborted) break;
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event.data) });
        }
      } catch (error) {
        // Headers are gone: the error goes out as the stream's last event, in the one error shape.
        const known = error instanceof RuntimeError && error.status < 500;
        const body = known
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: 'The event stream failed on our side; the error was logged.' };
        if (!known) console.error(error);
        if (!stream.aborted) await stream.writeSSE({ event: 'error', data: JSON.stringify({ error: body }) });
      } finally {
        aborted.abort();
      }
    });
  };
}
