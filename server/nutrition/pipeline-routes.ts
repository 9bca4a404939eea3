import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { IntakeDataSchema } from '../../protocol/nutrition/intake-data.ts';
import { WeeklyCheckinSchema } from '../../protocol/nutrition/weekly-checkin.ts';
import { userIdOf } from '../auth.ts';
import { readJsonBody, readQuery } from '../json-body.ts';
import type { RunEvent } from '../run-host/hosted-run.ts';
import type { PipelineRuns } from './pipeline-runs.ts';

/** `GET /pipelines/:id/events?until=settled`. */
export const PipelineEventsQuerySchema = z.object({ until: z.enum(['settled']).optional() });

/** `POST /clearance`: the user confirms the medical clearance. */
export const ClearanceBodySchema = z.strictObject({ confirmed: z.literal(true) });

/** The nutrition pipeline's routes (spec 000), all behind bearer auth. */
export function pipelineRoutes(runs: PipelineRuns) {
  return new Hono()
    .post('/', async (c) => {
      const intake = await readJsonBody(c, IntakeDataSchema);
      return c.json(await runs.create(userIdOf(c), intake), 201);
    })
    .get('/', async (c) => c.json({ pipelines: await runs.list(userIdOf(c)) }))
    .get('/:id', async (c) => c.json(await runs.view(userIdOf(c), c.req.param('id'))))
    .get('/:id/messages', async (c) => c.json({ messages: await runs.messages(userIdOf(c), c.req.param('id')) }))
    .post('/:id/physician/confirm', async (c) => c.json(await runs.confirmReferral(userIdOf(c), c.req.param('id'))))
    .post('/:id/checkins', async (c) => {
      const checkin = await readJsonBody(c, WeeklyCheckinSchema);
      return c.json(await runs.checkin(userIdOf(c), c.req.param('id'), checkin));
    })
    .get('/:id/events', async (c) => {
      const userId = userIdOf(c);
      const runId = c.req.param('id');
      const untilSettled = readQuery(c, PipelineEventsQuerySchema).until === 'settled';
      // Watch before reading the journal so that nothing routed in between is missed; an envelope
      // is sent once even when it is in the backlog and routed again (a redelivery).
      const queue: RunEvent[] = [];
      let wake: (() => void) | undefined;
      const { snapshot, stop, quiescent, settled } = await runs.watch(userId, runId, (event) => {
        queue.push(event);
        wake?.();
      });
      let backlog: Awaited<ReturnType<PipelineRuns['messages']>>;
      try {
        backlog = await runs.messages(userId, runId);
      } catch (error) {
        stop();
        throw error;
      }
      const sent = new Set<string>();
      return streamSSE(c, async (stream) => {
        // Aborted when the client leaves or the stream ends: nothing waits for the run any more.
        const leave = new AbortController();
        stream.onAbort(() => {
          leave.abort();
          wake?.();
        });
        // Settled, or no longer known to settle (a run on Restate whose last send failed): the stream ends.
        let isSettled = false;
        const end = () => {
          if (leave.signal.aborted) return;
          isSettled = true;
          wake?.();
        };
        if (untilSettled) settled(leave.signal).then(end, end);
        const message = async (envelope: { message_id: string }) => {
          if (sent.has(envelope.message_id)) return;
          sent.add(envelope.message_id);
          await stream.writeSSE({ event: 'message', data: JSON.stringify(envelope) });
        };
        const write = async () => {
          for (const event of queue.splice(0)) {
            if (event.type === 'message') await message(event.data as { message_id: string });
            else await stream.writeSSE({ event: 'state', data: JSON.stringify(event.data) });
          }
        };
        const state = String(snapshot.value);
        await stream.writeSSE({ event: 'state', data: JSON.stringify({ state, from: null, to: state }) });
        for (const envelope of backlog) await message(envelope);
        try {
          while (!stream.aborted) {
            await write();
            if (isSettled) {
              // The envelopes released on the way in are still being journaled: send them too.
              await quiescent();
              await write();
              break;
            }
            if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          }
        } finally {
          leave.abort();
          stop();
        }
      });
    });
}

/** `POST /clearance`: the user's medical clearance after an abort (§6.4). */
export function clearanceRoutes(runs: PipelineRuns) {
  return new Hono().post('/', async (c) => {
    await readJsonBody(c, ClearanceBodySchema);
    return c.json(await runs.clear(userIdOf(c)));
  });
}
