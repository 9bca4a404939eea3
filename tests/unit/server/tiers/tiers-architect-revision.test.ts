import { afterEach, describe, expect, it } from 'vitest';
import type { SpecialistResultShape } from '../../../../machines/tiers/task-context.ts';
import type { TiersEnvelope } from '../../../../protocol/tiers/envelope.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

/** A verifier that fails with `errorType` (the stub solver keeps claiming success: a lying solver). */
const failing = (errorType: string) => (): SpecialistResultShape => ({
  status: 'failed',
  summary: `verifier failed: ${errorType}`,
  confidence: 0.9,
  artifacts: [],
  log: [errorType],
  error_type: errorType,
  error_detail: errorType,
  recoverable: false,
});

const decompositions = (messages: TiersEnvelope[]) =>
  messages.filter((m) => m.target_tier === 'ROUTING_DISPATCHER' && 'task_type' in m.payload);

async function run(testsError: string, reviewError: string) {
  const service = await openTiers(tiersData(), {
    brains: {
      specialists: stubSpecialists({ 'test-designer': failing(testsError), reviewer: failing(reviewError) }),
    },
  });
  open.push(service);
  const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
  const view = await settledTask(service, 'ada', task_id);
  return { view, messages: (await service.messages('ada', task_id))! };
}

describe('tiers: the Architect’s revision', () => {
  it.each([
    ['solution_timeout', 'solution_memory'],
    ['property_violated', 'sandbox_error'],
    ['sandbox_error', 'tests_failed'],
  ])(
    'keeps verifiers the solution failed (%s, %s): no revision drops them, and the task does not end success',
    async (testsError, reviewError) => {
      const { view, messages } = await run(testsError, reviewError);
      expect(view.status).toBe('partial');
      expect(decompositions(messages)).toHaveLength(1);
    },
  );

  it('still drops verifiers that failed for another reason (revise-optional) and ends success', async () => {
    const { view, messages } = await run('sandbox_error', 'timing_unstable');
    expect(view.status).toBe('success');
    expect(decompositions(messages)).toHaveLength(2);
  });
});
