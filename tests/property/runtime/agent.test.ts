import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, inputHash } from '../../../actors/runtime/input-hash.ts';
import { AgentReportSchema } from '../../../protocol/runtime/agent-report.ts';
import { ValidationError } from '../../../protocol/runtime/runtime-error.ts';
import { flush, startAgentHarness } from '../../support/agent-harness.ts';
import type { AgentHarness } from '../../support/agent-harness.ts';
import { AgentModel, agentCommandArb } from '../../support/agent-model.ts';
import type { AgentCommand } from '../../support/agent-model.ts';

const NUM_RUNS = 300;

interface Trace {
  /** Per request id: its input and where in the observation order it was sent. */
  requests: Map<string, { input: unknown; index: number; seq: number }>;
  /** Every cancel sent: the id it named (undefined = all) and when. */
  cancels: { requestId: string | undefined; seq: number }[];
}

/** Applies one command to the real agent and to the model alike. */
async function step(harness: AgentHarness, model: AgentModel, trace: Trace, command: AgentCommand) {
  const active = harness.activeCall();
  const current = model.current;
  // The agent must be waiting on exactly the run the model says is current.
  expect(active?.input.requestId).toBe(current?.request.requestId);
  expect(active?.input.attempt).toBe(current?.attempts);
  switch (command.kind) {
    case 'request': {
      const requestId = `r${trace.requests.size}`;
      const index = trace.requests.size;
      trace.requests.set(requestId, { input: command.input, index, seq: harness.mark() });
      harness.send({ type: 'agent.request', requestId, input: command.input });
      model.request({ requestId, input: command.input });
      break;
    }
    case 'resolve':
    case 'reject':
    case 'invalid': {
      if (!active || !current) break;
      const tag = `${active.input.requestId}#${active.input.attempt}`;
      const issues = [{ path: `output.${tag}`, message: 'Expected a number' }];
      if (command.kind === 'resolve') active.resolve({ tag });
      if (command.kind === 'reject') active.reject(new Error(`boom ${tag}`));
      if (command.kind === 'invalid') active.reject(new ValidationError('bad output', issues));
      await flush();
      if (command.kind === 'resolve') model.complete({ tag });
      if (command.kind === 'reject') model.error(`boom ${tag}`);
      if (command.kind === 'invalid') model.invalid(issues);
      break;
    }
    case 'settleStale': {
      const stale = harness.calls.filter((call) => call.signal.aborted && !call.settled);
      const call = stale[command.pick % Math.max(stale.length, 1)];
      if (command.reject) call?.reject(new Error('stale'));
      else call?.resolve('stale');
      await flush();
      break;
    }
    case 'tick': {
      const remaining = model.remaining();
      const ms =
        remaining === undefined || command.mode === 'free'
          ? command.ms
          : command.mode === 'toDeadline'
            ? remaining
            : Math.max(remaining - 1, 1);
      harness.clock.increment(ms);
      model.tick(ms);
      await flush();
      break;
    }
    case 'cancel': {
      const { target, pick } = command;
      const requestId =
        target === 'all'
          ? undefined
          : target === 'current'
            ? (current?.request.requestId ?? 'nobody')
            : target === 'queued'
              ? (model.queue[pick % Math.max(model.queue.length, 1)]?.requestId ?? 'nobody')
              : target === 'finished'
                ? (model.finished[pick % Math.max(model.finished.length, 1)] ?? 'nobody')
                : 'nobody';
      trace.cancels.push({ requestId, seq: harness.mark() });
      harness.send({ type: 'agent.cancel', requestId });
      model.cancel(requestId);
      await flush();
      break;
    }
  }
  expect(harness.reports.map(({ report }) => report)).toEqual(model.reports);
}

/** The properties of the brief, checked on what was observed, independently of the model. */
function checkInvariants(harness: AgentHarness, trace: Trace, maxAttempts: number) {
  const reports = harness.reports.map(({ seq, report }) => ({
    seq,
    report: AgentReportSchema.parse(report),
  }));
  // Each request is reported exactly once (the run ends with a cancel of everything).
  const reportedIds = reports.map(({ report }) => report.requestId);
  expect(reportedIds.sort()).toEqual([...trace.requests.keys()].sort());
  for (const [requestId, request] of trace.requests) {
    const calls = harness.calls.filter((call) => call.input.requestId === requestId);
    const { seq: reportSeq, report } = reports.find((r) => r.report.requestId === requestId)!;
    // At most maxAttempts runs, numbered in order, each on the very same input.
    expect(calls.length).toBeLessThanOrEqual(maxAttempts);
    expect(report.attempts).toBe(calls.length);
    expect(calls.map((call) => call.input.attempt)).toEqual(calls.map((_, i) => i + 1));
    for (const call of calls) {
      expect(call.input.input).toBe(request.input);
      expect(call.seq).toBeLessThan(reportSeq);
      // No run starts for a request once a cancel naming it (or everything) was sent.
      for (const cancel of trace.cancels) {
        const names = cancel.requestId === requestId || (cancel.requestId === undefined && cancel.seq > request.seq);
        if (names) expect(call.seq).toBeLessThan(cancel.seq);
      }
    }
    // A request cancelled mid-run had its brain's signal aborted.
    if (report.outcome.status === 'cancelled' && calls.length > 0) {
      expect(calls.at(-1)?.signal.aborted).toBe(true);
    }
    // So was the run that timed out (an earlier run may have failed by throwing instead).
    if (report.outcome.status === 'failed' && report.outcome.failure.kind === 'timeout') {
      expect(calls.at(-1)?.signal.aborted).toBe(true);
    }
  }
  // FIFO: every report except a cancel of a never-started request comes in request order.
  const served = reports
    .filter(({ report }) => report.attempts > 0)
    .map(({ report }) => trace.requests.get(report.requestId)!.index);
  expect(served).toEqual([...served].sort((a, b) => a - b));
  const firstRuns = harness.calls.filter((call) => call.input.attempt === 1);
  const firstRunOrder = firstRuns.map((call) => trace.requests.get(call.input.requestId)!.index);
  expect(firstRunOrder).toEqual([...firstRunOrder].sort((a, b) => a - b));
  // Nothing is left running once everything is cancelled.
  expect(harness.activeCall()).toBeUndefined();
}

describe('agentMachine (property)', () => {
  it('reports each request once, retries on identical input, honours cancel and FIFO', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5_000 }),
        fc.constantFrom(undefined, 1, 2, 3),
        fc.array(agentCommandArb, { minLength: 1, maxLength: 60, size: 'medium' }),
        async (timeoutMs, maxAttemptsOption, commands) => {
          const maxAttempts = maxAttemptsOption ?? 2;
          const harness = startAgentHarness({
            name: 'NUTRITIONIST',
            timeoutMs,
            maxAttempts: maxAttemptsOption,
          });
          const model = new AgentModel('NUTRITIONIST', timeoutMs, maxAttempts);
          const trace: Trace = { requests: new Map(), cancels: [] };
          try {
            for (const command of commands) await step(harness, model, trace, command);
            await step(harness, model, trace, { kind: 'cancel', target: 'all', pick: 0 });
            checkInvariants(harness, trace, maxAttempts);
            const agent = harness.parent.getSnapshot().children.agent;
            expect(agent?.getSnapshot().status).toBe('active');
          } finally {
            harness.parent.stop();
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('inputHash (property)', () => {
  it('depends only on content, not on the order keys were added', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(inputHash(reversed)).toBe(inputHash(record));
        expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
