import { describe, expect, it } from 'vitest';
import { SimulatedClock, type InspectionEvent } from 'xstate';
import type { Journal } from '../../../actors/runtime/journal.ts';
import { createMemoryJournal } from '../../../actors/runtime/memory-journal.ts';
import { createMemoryStore } from '../../../actors/runtime/memory-store.ts';
import { offlineNutritionBrains } from '../../../actors/nutrition/offline-brains.ts';
import type { RoutedRecord } from '../../../protocol/runtime/routing.ts';
import { PipelineRuns } from '../../../server/nutrition/pipeline-runs.ts';
import { embeddedPipelineHost } from '../../../server/nutrition/embedded-pipeline-host.ts';
import { payload } from '../../support/nutrition/nutrition-fakes.ts';

/** A journal whose disk dies when the week's meal plan is written: that append and every later one fail. */
function journalDyingAt(dataType: string) {
  const journal = createMemoryJournal<RoutedRecord>();
  let dead = false;
  const appendMany: Journal<RoutedRecord>['appendMany'] = (partition, data) => {
    if (data.some((record) => record.envelope.data_type === dataType)) dead = true;
    return dead ? Promise.reject(new Error('EIO: i/o error')) : journal.appendMany(partition, data);
  };
  return {
    ...journal,
    appendMany,
    append: (partition: string, record: RoutedRecord) => appendMany(partition, [record]).then((e) => e[0]!),
  };
}

describe('a nutrition run whose journal fails mid-way (pipelined delivery)', () => {
  it('revokes the work on the lost envelope, journals nothing after it, and ends in error at the pipeline timeout', async () => {
    const clock = new SimulatedClock();
    const journal = journalDyingAt('weekly_meal_plan');
    const seen: InspectionEvent[] = [];
    const store = createMemoryStore();
    const runs = await PipelineRuns.open(
      store,
      embeddedPipelineHost({
        store,
        journal,
        brains: offlineNutritionBrains(),
        clock,
        inspect: (_runId, event) => seen.push(event),
      }),
    );
    const eventsTo = (actor: string, type: string) =>
      seen
        .filter(
          (e) => e.type === '@xstate.event' && (e.actorRef as { id?: string }).id === actor && e.event.type === type,
        )
        .map((e) => (e as { event: any }).event);
    try {
      const { pipeline_run_id: id } = await runs.create('ada', payload('intake_data'));
      // CHEF got the plan as soon as its append was issued; once the append failed it was told to stop.
      await expect.poll(() => eventsTo('CHEF', 'agent.cancel').length, { timeout: 10_000 }).toBe(1);
      const plan = eventsTo('CHEF', 'agent.request')[0].input.envelope;
      expect(eventsTo('CHEF', 'agent.cancel')[0]).toEqual({ type: 'agent.cancel', requestId: plan.message_id });
      expect(eventsTo('DIETITIAN', 'supervisor.rejected')[0].error.code).toBe('journal_unavailable');
      const journaled = (await journal.read(id)).map((e) => e.data.envelope.data_type);
      expect(journaled).not.toContain('weekly_meal_plan');
      expect(journaled).not.toContain('recipes');
      expect((await runs.view('ada', id)).state).toBe('chef_processing');
      clock.increment(180_000);
      await expect.poll(async () => (await runs.view('ada', id)).state).toBe('error');
      expect((await runs.view('ada', id)).error).toMatchObject({ error_type: 'timeout' });
    } finally {
      await runs.close();
    }
  });
});
