import { describe, expect, it } from 'vitest';
import { createMemoryJournal } from '../../../../actors/runtime/memory-journal.ts';
import type { AgentReport } from '../../../../protocol/runtime/agent-report.ts';
import type { RoutedRecord } from '../../../../protocol/runtime/routing.ts';
import { recorderAgent } from '../../../support/recorder-agent.ts';
import { reportRecorder } from '../../../support/report-recorder.ts';
import { startSystem } from '../../../support/supervisor-harness.ts';
import { testSystem } from '../../../support/test-system.ts';

/* How the supervisor passes agents' reports on: to observers always, to the orchestrator when another agent reports. */

const report = (agent: string, requestId: string, output: unknown = 'done'): AgentReport => ({
  type: 'agent.report',
  agent,
  requestId,
  attempts: 1,
  outcome: { status: 'completed', output },
});

/** A, B recorders; C records every event the supervisor sends it, and is the orchestrator unless told otherwise. */
function start(orchestrator: string | null = 'C') {
  const system = { ...testSystem({ A: recorderAgent, B: recorderAgent, C: reportRecorder }) };
  if (orchestrator) Object.assign(system, { orchestrator });
  const journal = createMemoryJournal<RoutedRecord>();
  const started = startSystem(system, journal);
  const heardByC = () => started.agent('C').getSnapshot().context.heard as { type: string }[];
  const reports = () => started.emitted.flatMap((e) => (e.type === 'supervisor.report' ? [e.report] : []));
  return { ...started, journal, heardByC, reports };
}

describe('supervisor reports', () => {
  it("tells the orchestrator of another agent's report as supervisor.report, and observers of it", () => {
    const { sendAs, heardByC, reports } = start();
    const done = report('B', 'r1');
    sendAs('B', done);
    expect(heardByC()).toEqual([{ type: 'supervisor.report', report: done }]);
    expect(reports()).toEqual([done]);
  });

  it('does not tell the orchestrator of its own report; observers still hear it', () => {
    const { sendAs, heardByC, reports } = start();
    const own = report('C', 'r2');
    sendAs('C', own);
    expect(heardByC()).toEqual([]);
    expect(reports()).toEqual([own]);
  });

  it('tells only observers when the system has no orchestrator', () => {
    const { actor, sendAs, heardByC, reports } = start(null);
    sendAs('B', report('B', 'r3'));
    sendAs('C', report('C', 'r4'));
    expect(reports().map((r) => r.requestId)).toEqual(['r3', 'r4']);
    expect(heardByC()).toEqual([]);
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('routes nothing, and refuses nothing, for a completed report whose output is no envelope', async () => {
    const { actor, emitted, journal, sendAs, received } = start();
    for (const output of ['done', { text: 'no id' }, 42, null]) sendAs('B', report('B', `r-${String(output)}`, output));
    await expect.poll(() => emitted.filter((e) => e.type === 'supervisor.report').length).toBe(4);
    expect(emitted.map((e) => e.type)).toEqual(Array(4).fill('supervisor.report'));
    expect(received('A')).toEqual([]);
    expect(await journal.partitions()).toEqual([]);
    expect(actor.getSnapshot().status).toBe('active');
  });
});
