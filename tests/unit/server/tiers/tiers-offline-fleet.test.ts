import { afterEach, describe, expect, it } from 'vitest';
import { openModelBackends } from '../../../../actors/models/model-backends.ts';
import { offlineArchitect } from '../../../../actors/tiers/planning/offline-architect.ts';
import { tierBrainsFor } from '../../../../actors/tiers/tier-brains-for.ts';
import type { TierBrains } from '../../../../machines/tiers/task-context.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

describe('tiers with the offline brains and the real fleet', () => {
  const brains: TierBrains = tierBrainsFor(openModelBackends({ primaryModel: 'claude-haiku-4-5' }));

  it('chooses the offline planners and fleet without a key', () => {
    expect(brains.architect).toBe(offlineArchitect);
    expect(Object.keys(brains.specialists).sort()).toEqual(['js-solver', 'reviewer', 'test-designer']);
  });

  it('solves binary search: a code artifact and a test_result whose counts come from running the tests', async () => {
    const service = await openTiers(tiersData(), { brains });
    open.push(service);
    const { task_id } = await service.submit('ada', BINARY_SEARCH_TASK);
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
    const testResult = view.outcome!.artifacts.find((a) => a.artifact_type === 'test_result')!;
    expect(testResult.metadata).toMatchObject({ passed: BINARY_SEARCH_TASK.problem.test_cases.length, failed: 0 });
    expect(view.outcome!.artifacts.some((a) => a.artifact_type === 'code')).toBe(true);
    expect(view.outcome!.resources_used).toMatchObject({ tokens: { input: 0, output: 0 } });
  }, 60_000);

  it('ends an unknown problem failed with unsupported_problem, not recoverable, and no reset', async () => {
    const service = await openTiers(tiersData(), { brains });
    open.push(service);
    const { task_id } = await service.submit('ada', {
      objective: 'Something no template knows',
      problem: {
        statement: 'Return the name of the ship in the painting.',
        function_name: 'shipName',
        language: 'javascript',
        test_cases: [{ input: ['x'], expected: 'Argo' }],
      },
    });
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('failed');
    expect(view.tree).toHaveLength(1);
    expect(view.outcome).toMatchObject({ error_type: 'unsupported_problem', recoverable: false });
  }, 60_000);
});
