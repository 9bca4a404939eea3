import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { AgentBrainInput } from '../../../protocol/runtime/agent-report.ts';
import type { DeliveredMessage } from '../../../protocol/runtime/routing.ts';
import { echoOf, type EchoEnvelope } from '../../support/echo/echo-envelope.ts';
import { echoModule } from '../../support/echo/echo-module.ts';
import { startRuntime } from '../../support/runtime-harness.ts';
import { VALID_PAYLOADS } from '../../unit/protocol/nutrition/fixtures.ts';

/** ECHO answers only when the test opens the gate: runs stay working until then. */
function gatedBrain() {
  let open!: () => void;
  let opened = new Promise<void>((resolve) => (open = resolve));
  const brain = fromPromise<unknown, AgentBrainInput>(async ({ input }) => {
    await opened;
    return echoOf((input.input as DeliveredMessage).envelope as EchoEnvelope);
  });
  return {
    brain,
    open: () => {
      open();
      opened = Promise.resolve();
    },
  };
}

const started: Awaited<ReturnType<typeof startRuntime>>[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((rt) => rt.stop().catch(() => undefined)));
});

async function echoRuntime(brain: ReturnType<typeof gatedBrain>['brain'], admission: object) {
  const rt = await startRuntime({ modules: [echoModule({ brain })] }, undefined, { admission });
  started.push(rt);
  return rt;
}

const echo = (rt: Awaited<ReturnType<typeof echoRuntime>>, user: string) =>
  rt.call(user, 'POST', '/echo', { text: 'hello' });

function expectRefused(answer: { status: number; body: any; response: Response }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.response.headers.get('retry-after')).toBe('1');
  expect(answer.body.error.code).toBe(code);
  expect(answer.body.error.message).toMatch(/echo runs/);
}

describe('admission control in the run host (any system, here the echo module)', () => {
  it('refuses beyond the limits at once: 429 for one user over their share, 503 when full; a run that ends frees its slot', async () => {
    const gate = gatedBrain();
    const rt = await echoRuntime(gate.brain, { maxWorking: 3, maxPerOwner: 2 });
    expect((await echo(rt, 'ada')).status).toBe(201);
    expect((await echo(rt, 'ada')).status).toBe(201);
    // Ada has her share: she is told to wait, others still get in.
    expectRefused(await echo(rt, 'ada'), 429, 'too_many_runs');
    const bob = await echo(rt, 'bob');
    expect(bob.status).toBe(201);
    // Full: anyone new is refused with 503, and nothing was started for them.
    expectRefused(await echo(rt, 'cy'), 503, 'overloaded');
    // The runs end: their slots are free again, and every accepted run completed.
    gate.open();
    await expect
      .poll(async () => (await rt.call('bob', 'GET', `/echo/${bob.body.run_id}`)).body.state, { timeout: 10_000 })
      .toBe('done');
    await expect.poll(async () => (await echo(rt, 'cy')).status, { timeout: 10_000 }).toBe(201);
  });

  it('counts runs recovered after a restart, whatever the limits', async () => {
    const gate = gatedBrain();
    const first = await echoRuntime(gate.brain, { maxWorking: 2, maxPerOwner: 2 });
    expect((await echo(first, 'ada')).status).toBe(201);
    expect((await echo(first, 'bob')).status).toBe(201);
    await first.runtime.close();
    started.splice(started.indexOf(first), 1);
    // Back with a smaller limit: both runs come back working, so there is no room for a third.
    const again = await startRuntime({ modules: [echoModule({ brain: gatedBrain().brain })] }, first.dir, {
      admission: { maxWorking: 1, maxPerOwner: 1 },
    });
    started.push(again);
    expectRefused(await echo(again, 'cy'), 503, 'overloaded');
  });
});

describe('admission on the nutrition pipeline (POST /pipelines, check-ins)', () => {
  it('answers 503 with Retry-After and the one error shape when its runs are all working', async () => {
    const rt = await startRuntime({}, undefined, { admission: { maxWorking: 1, maxPerOwner: 1 } });
    started.push(rt);
    const results = await Promise.all(
      ['ada', 'bob', 'cy'].map((user) => rt.call(user, 'POST', '/pipelines', VALID_PAYLOADS.intake_data)),
    );
    // One run works at a time (a run takes tens of ms; the three arrive together): one is accepted.
    expect(results.map((r) => r.status).sort((a, b) => a - b)).toEqual([201, 503, 503]);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(refused.response.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toMatchObject({ code: 'overloaded' });
    }
    // Refused means nothing was started: the refused users have no runs.
    const refusedUser = ['ada', 'bob', 'cy'][results.findIndex((r) => r.status === 503)]!;
    expect((await rt.call(refusedUser, 'GET', '/pipelines')).body.pipelines).toEqual([]);
  });
});

const quiet = { systems: { trainer: { consoleLog: false } } };

describe('admission on the trainer (POST /agent/chat, /agent/stream)', () => {
  it('answers 503 before a turn starts when the host is full, and 429 when a session has 4 turns in line', async () => {
    const full = await startRuntime(quiet, undefined, { admission: { maxWorking: 1, maxPerOwner: 1 } });
    started.push(full);
    const turns = await Promise.all(
      ['ada', 'bob', 'cy'].map((user) =>
        full.call(user, 'POST', '/agent/chat', { message: 'Give me a chest workout' }),
      ),
    );
    expect(turns.map((t) => t.status).sort((a, b) => a - b)).toEqual([200, 503, 503]);
    for (const refused of turns.filter((t) => t.status === 503)) {
      expect(refused.response.headers.get('retry-after')).toBe('1');
      expect(refused.body.error.code).toBe('overloaded');
    }

    const rt = await startRuntime(quiet);
    started.push(rt);
    const session = (await rt.call('ada', 'POST', '/agent/sessions', {})).body.session.id as string;
    const line = await Promise.all(
      Array.from({ length: 6 }, () =>
        rt.call('ada', 'POST', '/agent/chat', { message: 'Give me a chest workout', sessionId: session }),
      ),
    );
    // One turn at a time per session, four in line at most: the fifth and sixth are told to wait.
    expect(line.map((t) => t.status).sort((a, b) => a - b)).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = line.find((t) => t.status === 429)!;
    expect(refused.response.headers.get('retry-after')).toBe('1');
    expect(refused.body.error.code).toBe('too_many_runs');
    // The line drained: the session takes turns again.
    expect((await rt.call('ada', 'POST', '/agent/chat', { message: 'Thanks!', sessionId: session })).status).toBe(200);
  });
});
