import { afterEach, describe, expect, it } from 'vitest';
import { TiersEnvelopeSchema } from '../../../../protocol/tiers/envelope.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

describe('TiersServiceImpl', () => {
  it('solves a task through the four tiers: Monitor, Architect, Dispatcher, fleet and back', async () => {
    const data = tiersData();
    const service = await openTiers(data);
    open.push(service);
    const { task_id, status } = await service.submit('ada', BINARY_SEARCH_TASK);
    expect(status).toBe('working');
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('success');
    expect(view.outcome?.artifacts.map((a) => a.artifact_type)).toEqual(
      expect.arrayContaining(['code', 'test_result']),
    );
    const messages = (await service.messages('ada', task_id))!;
    for (const message of messages) expect(TiersEnvelopeSchema.safeParse(message).success).toBe(true);
    const edges = messages.map((m) => `${m.source_tier}>${m.target_tier}`);
    expect(edges[0]).toBe('PROGRESS_MONITOR>ABSTRACT_ARCHITECT');
    expect(edges).toContain('ROUTING_DISPATCHER>SPECIALIZED_FLEET');
    expect(edges.at(-1)).toBe('ABSTRACT_ARCHITECT>PROGRESS_MONITOR');
    const root = view.tree[0]!;
    expect(root.status).toBe('success');
    expect(root.children[0]!.target_tier).toBe('ROUTING_DISPATCHER');
    expect(root.children[0]!.children.map((c) => c.specialist).sort()).toEqual([
      'js-solver',
      'reviewer',
      'test-designer',
    ]);
    const keys = (await service.beads('ada', task_id))!.map((e) => e.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'task/current-objective',
        'task/constraints',
        'routing/task-graph',
        'routing/assignments',
        'system/routing-accuracy',
        'system/bottlenecks',
        'system/loaded-loras',
      ]),
    );
    expect(keys.some((k) => k.startsWith('execution/outputs/'))).toBe(true);
    expect(keys.some((k) => k.startsWith('execution/logs/'))).toBe(true);
    expect(view.outcome?.resources_used).toMatchObject({
      specialists_used: expect.arrayContaining(['js-solver']),
      attempts: 3,
      tokens: { input: 0, output: 0 },
    });
  });
});

describe('TiersServiceImpl across a restart', () => {
  it('resumes an unfinished task: what was not handled is handed over again, nothing handled twice', async () => {
    const data = tiersData();
    let reached!: () => void;
    const stuck = new Promise<void>((resolve) => (reached = resolve));
    const first = await openTiers(data, {
      brains: {
        specialists: stubSpecialists({
          'js-solver': () => {
            reached();
            return new Promise(() => {});
          },
        }),
      },
    });
    const { task_id } = await first.submit('ada', BINARY_SEARCH_TASK);
    await stuck;
    await first.close();
    const solves: number[] = [];
    const second = await openTiers(data, {
      brains: { specialists: stubSpecialists({ 'js-solver': (r) => (solves.push(1), solved(r)) }) },
    });
    open.push(second);
    const view = await settledTask(second, 'ada', task_id);
    expect(view.status).toBe('success');
    expect(solves).toHaveLength(1);
    const messages = (await second.messages('ada', task_id))!;
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    expect(messages.filter((m) => m.source_tier === 'ABSTRACT_ARCHITECT' && 'task_type' in m.payload)).toHaveLength(1);
  });
});
