import { afterEach, describe, expect, it } from 'vitest';
import type { OutcomePayload } from '../../../../protocol/tiers/payloads.ts';
import type { TiersServiceImpl } from '../../../../server/tiers/tiers-service.ts';
import { solved, stubSpecialists } from '../../../support/tiers/stub-specialists.ts';
import { BINARY_SEARCH_TASK, openTiers, settledTask, tiersData } from '../../../support/tiers/tiers-harness.ts';

const open: TiersServiceImpl[] = [];
afterEach(async () => {
  for (const service of open.splice(0)) await service.close();
});

/** An external Progress Monitor's delegation to the Architect (spec 002's envelope, every field). */
function delegation(id: string, extra: Record<string, unknown> = {}) {
  return {
    version: '1.0.0',
    id,
    timestamp: '2026-01-01T00:00:00Z',
    source_tier: 'PROGRESS_MONITOR',
    target_tier: 'ABSTRACT_ARCHITECT',
    correlation_id: null,
    payload: {
      task_type: 'solve',
      objective: BINARY_SEARCH_TASK.objective,
      constraints: [],
      context_refs: [],
      priority: 1,
      timeout_ms: null,
      deadline_hint: null,
      specialist_hint: null,
      task_data: { problem: BINARY_SEARCH_TASK.problem },
    },
    ...extra,
  };
}

describe('TiersService.receive (POST /tiers/messages)', () => {
  it('refuses an unknown major version with version_not_supported and the supported majors', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const error = await service.receive('ada', { ...delegation('ext-1'), version: '2.0.0' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'version_not_supported', status: 400, supported: [1] });
    expect((error as Error).message).toContain('supported major versions: 1');
    expect(await service.list('ada')).toEqual([]);
  });

  it('accepts a newer minor with unknown fields, and runs the task', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const answer = await service.receive('ada', { ...delegation('ext-2', { trace: { span: 'x' } }), version: '1.3.0' });
    expect(answer.message_id).toBe('ext-2');
    const view = await settledTask(service, 'ada', answer.task_id);
    expect(view.status).toBe('success');
    expect((await service.messages('ada', answer.task_id))![0]).toMatchObject({
      id: 'ext-2',
      version: '1.3.0',
      trace: { span: 'x' },
    });
  });

  it('answers a duplicate id from the cache without running anything again, also after a restart', async () => {
    const data = tiersData();
    let solves = 0;
    const brains = { specialists: stubSpecialists({ 'js-solver': (r) => (solves++, solved(r)) }) };
    const first = await openTiers(data, { brains });
    const answer = await first.receive('ada', delegation('ext-3'));
    await settledTask(first, 'ada', answer.task_id);
    expect(await first.receive('ada', delegation('ext-3'))).toEqual(answer);
    await first.close();
    const second = await openTiers(data, { brains });
    open.push(second);
    expect(await second.receive('ada', delegation('ext-3'))).toEqual(answer);
    expect(solves).toBe(1);
    expect((await second.list('ada')).map((t) => t.task_id)).toEqual([answer.task_id]);
  });

  it('refuses a delegation whose context_refs name keys the Architect may not read', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const body = delegation('ext-4');
    body.payload.context_refs = ['beads:problem-statement'] as never;
    const { task_id } = await service.receive('ada', body);
    const view = await settledTask(service, 'ada', task_id);
    expect(view.status).toBe('failed');
    expect(view.outcome?.error_type).toBe('invalid_context_ref');
    expect((view.outcome as OutcomePayload).error_detail).toContain('beads:problem-statement');
  });

  it('refuses a message that is not a spec envelope, naming the field', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const error = await service
      .receive('ada', { ...delegation('ext-5'), source_tier: 'USER' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
  });
});

describe('TiersService.receive across users', () => {
  it('refuses another user’s message id (409 message_id_taken) instead of joining their task', async () => {
    const service = await openTiers(tiersData());
    open.push(service);
    const ada = await service.receive('ada', delegation('shared-id'));
    const error = await service.receive('bob', delegation('shared-id')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'message_id_taken', status: 409 });
    expect(await service.get('bob', ada.task_id)).toBeUndefined();
    expect((await settledTask(service, 'ada', ada.task_id)).status).toBe('success');
    expect(await service.list('bob')).toEqual([]);
  });
});
