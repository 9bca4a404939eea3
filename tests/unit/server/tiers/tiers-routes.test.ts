import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../../../../protocol/runtime/runtime-error.ts';
import { parseSseEvents, taskBody, tiersRouteApp } from '../../../support/tiers/tiers-route-app.ts';

const TASK_ROUTES: [string, string, unknown?][] = [
  ['GET', '/tiers/tasks/ID'],
  ['GET', '/tiers/tasks/ID/messages'],
  ['GET', '/tiers/tasks/ID/beads'],
  ['GET', '/tiers/tasks/ID/events?until=settled'],
  ['POST', '/tiers/tasks/ID/cancel', { reason: 'no longer needed', cascade: true }],
  ['POST', '/tiers/tasks/ID/clarification', { answer: 'the first one' }],
];

describe('tiers routes', () => {
  it('answer 401 in the one error shape without a bearer token', async () => {
    const { call } = await tiersRouteApp();
    for (const [method, path, body] of [
      ['POST', '/tiers/tasks', taskBody()],
      ['GET', '/tiers/tasks'],
      ['POST', '/tiers/messages', {}],
      ...TASK_ROUTES,
    ] as [string, string, unknown?][]) {
      const answer = await call(null, method, path.replace('ID', 'task-1'), body);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    }
  });

  it('submit a valid task: 201 with its id and status, the parsed request handed to the service', async () => {
    const { call, service } = await tiersRouteApp();
    const answer = await call(
      'ada',
      'POST',
      '/tiers/tasks',
      taskBody({ priority: 1, aggregation_strategy: 'majority' }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ task_id: 'task-1', status: 'working' });
    expect(service.submitted).toEqual([taskBody({ priority: 1, aggregation_strategy: 'majority' })]);
  });

  it('refuse a malformed JSON body with 400 invalid_json, submitting nothing', async () => {
    const { call, service } = await tiersRouteApp();
    const answer = await call('ada', 'POST', '/tiers/tasks', '{"objective": ');
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_json');
    expect(service.submitted).toEqual([]);
  });

  it("answer 404 alike for a missing task and another user's, on every task route", async () => {
    const { call, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    for (const [method, path, body] of TASK_ROUTES) {
      for (const [user, id] of [
        ['bob', task_id],
        ['ada', 'task-404'],
      ] as const) {
        const answer = await call(user, method, path.replace('ID', id), body);
        expect(answer.status, `${user} ${method} ${path}`).toBe(404);
        expect(answer.body.error).toEqual({ code: 'not_found', message: `Tiers task ${id} was not found.` });
      }
    }
    expect(service.cancellations).toEqual([]);
    expect(service.answers).toEqual([]);
  });

  it("list only the user's own tasks, newest first", async () => {
    const { call } = await tiersRouteApp();
    const first = (await call('ada', 'POST', '/tiers/tasks', taskBody())).body.task_id;
    await call('bob', 'POST', '/tiers/tasks', taskBody());
    const third = (await call('ada', 'POST', '/tiers/tasks', taskBody())).body.task_id;
    const { body } = await call('ada', 'GET', '/tiers/tasks');
    expect(body.tasks.map((t: { task_id: string }) => t.task_id)).toEqual([third, first]);
    expect(body.tasks[0]).toEqual({ task_id: third, status: 'working', created_at: expect.any(String) });
  });

  it('read a task, its messages and its Beads entries under a prefix', async () => {
    const { call, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    service.write(task_id, { key: 'task/current-objective', value: 'x', version: 1, written_by: 'ABSTRACT_ARCHITECT' });
    service.write(task_id, { key: 'routing/task-graph', value: [], version: 1, written_by: 'ROUTING_DISPATCHER' });
    expect((await call('ada', 'GET', `/tiers/tasks/${task_id}`)).body).toMatchObject({ task_id, status: 'working' });
    expect((await call('ada', 'GET', `/tiers/tasks/${task_id}/messages`)).body).toEqual({ messages: [] });
    const beads = await call('ada', 'GET', `/tiers/tasks/${task_id}/beads?prefix=routing/`);
    expect(beads.body.entries.map((e: { key: string }) => e.key)).toEqual(['routing/task-graph']);
    const all = await call('ada', 'GET', `/tiers/tasks/${task_id}/beads`);
    expect(all.body.entries).toHaveLength(2);
    const bad = await call('ada', 'GET', `/tiers/tasks/${task_id}/beads?prefix=`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['prefix']);
  });

  it('cancel a working task: 202, the reason and cascade handed over; a finished one answers its outcome', async () => {
    const { call, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    const accepted = await call('ada', 'POST', `/tiers/tasks/${task_id}/cancel`, { reason: 'stop', cascade: true });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ task_id, accepted: true });
    expect(service.cancellations).toEqual([{ taskId: task_id, reason: 'stop', cascade: true }]);
    service.settle(task_id, 'success');
    const finished = await call('ada', 'POST', `/tiers/tasks/${task_id}/cancel`, { reason: 'late', cascade: false });
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ task_id, status: 'success' });
    expect(service.cancellations).toHaveLength(1);
    const bad = await call('ada', 'POST', `/tiers/tasks/${task_id}/cancel`, { reason: 'stop', cascade: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['cascade']);
  });

  it('take a clarification only while the task waits for one: 202, else 409', async () => {
    const { call, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    const early = await call('ada', 'POST', `/tiers/tasks/${task_id}/clarification`, { answer: 'use 4' });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('not_waiting_for_clarification');
    expect(early.body.error.message).toContain(`GET /tiers/tasks/${task_id}`);
    service.ask(task_id, 'Input [[1,2],1] expects both 0 and 1: which is right?');
    const answered = await call('ada', 'POST', `/tiers/tasks/${task_id}/clarification`, { answer: 'use 0' });
    expect(answered.status).toBe(202);
    expect(service.answers).toEqual([{ taskId: task_id, answer: 'use 0' }]);
    const empty = await call('ada', 'POST', `/tiers/tasks/${task_id}/clarification`, { answer: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['answer']);
  });

  it("pass an external Monitor's message to the service: 202, and its refusals keep their code and status", async () => {
    const { call, service } = await tiersRouteApp();
    const accepted = await call('ada', 'POST', '/tiers/messages', { id: 'msg-ext-1', version: '1.0.0' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ task_id: expect.any(String), message_id: 'msg-ext-1' });
    expect(service.received).toEqual([{ id: 'msg-ext-1', version: '1.0.0' }]);
    service.refuseNext = new RuntimeError('version_not_supported', 'Version 2.0.0 is not supported (majors: 1).', 400);
    const refused = await call('ada', 'POST', '/tiers/messages', { id: 'msg-ext-2', version: '2.0.0' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('version_not_supported');
    const malformed = await call('ada', 'POST', '/tiers/messages', 'not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_json');
  });
});

describe('GET /tiers/tasks/:id/events', () => {
  it('streams past and live events named by type, one JSON object per data line, and closes once settled', async () => {
    const { request, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    service.emit(task_id, { type: 'status', data: { message_id: 'm-1', status: 'working' } });
    const response = await request('ada', 'GET', `/tiers/tasks/${task_id}/events?until=settled`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = response.text();
    service.emit(task_id, { type: 'status', data: { message_id: 'm-1', status: 'success' } });
    service.settle(task_id, 'success');
    service.emit(task_id, { type: 'status', data: { message_id: 'm-2', status: 'working' } });
    const events = parseSseEvents(await text);
    expect(events).toEqual([
      { event: 'status', data: { message_id: 'm-1', status: 'working' } },
      { event: 'status', data: { message_id: 'm-1', status: 'success' } },
      { event: 'settled', data: { task_id, status: 'success' } },
    ]);
    for (const block of (await (await request('ada', 'GET', `/tiers/tasks/${task_id}/events?until=settled`)).text())
      .split('\n\n')
      .filter(Boolean))
      expect(block.split('\n').filter((line) => line.startsWith('data: '))).toHaveLength(1);
    expect(service.openStreams).toBe(0);
  });

  it('closes when a task waits for the user (settled without a terminal status)', async () => {
    const { request, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    const text = (await request('ada', 'GET', `/tiers/tasks/${task_id}/events?until=settled`)).text();
    service.ask(task_id, 'Which expected value is right?');
    expect((await text.then(parseSseEvents)).map((e) => e.event)).toEqual(['settled']);
  });

  it('without until=settled stays open after settled, and stops its iterator when the client leaves', async () => {
    const { request, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    service.settle(task_id, 'failed');
    const response = await request('ada', 'GET', `/tiers/tasks/${task_id}/events`);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(parseSseEvents(first)).toEqual([{ event: 'settled', data: { task_id, status: 'failed' } }]);
    service.emit(task_id, { type: 'status', data: { message_id: 'late', status: 'cancelled' } });
    expect(parseSseEvents(new TextDecoder().decode((await reader.read()).value))[0]!.event).toBe('status');
    await reader.cancel();
    await expect.poll(() => service.openStreams).toBe(0);
  });

  it('refuses an unknown until value with 400 naming it', async () => {
    const { call, service } = await tiersRouteApp();
    const { task_id } = await service.submit('ada', taskBody() as never);
    const answer = await call('ada', 'GET', `/tiers/tasks/${task_id}/events?until=done`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['until']);
  });
});
