import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import { MACHINES } from '../../../../machines/runtime/machines.ts';

const root = new URL('../../../../', import.meta.url);

describe("the runtime's drawn machines", () => {
  it('are the supervisor and the agent worker, each named by its machine id', () => {
    expect(MACHINES.map((entry) => entry.name)).toEqual(['supervisor', 'agent']);
    for (const entry of MACHINES) expect(entry.name).toBe(entry.machine.id);
    expect(MACHINES[1]!.machine).toBe(agentMachine);
  });

  it('each have a title and a summary to show, and point at the module and export that make them', async () => {
    for (const { title, summary, source, machine } of MACHINES) {
      expect(title.length).toBeGreaterThan(0);
      expect(summary.length).toBeGreaterThan(title.length);
      const module = (await import(new URL(source.file, root).href)) as Record<string, unknown>;
      const made = module[source.exportName];
      // A machine is exported as itself; the supervisor as the factory of every system's.
      if (typeof made === 'function') expect((made as (...args: never[]) => unknown).name).toBe(source.exportName);
      else expect(made).toBe(machine);
    }
  });

  it('draws the supervisor with pipelined delivery, whose machine has every transition', () => {
    const supervisor = MACHINES[0]!.machine;
    // Durable delivery routes a report with one transition; pipelined delivery may hold or refuse it first.
    expect(supervisor.root.on['agent.report']).toHaveLength(3);
    expect(supervisor.root.on['supervisor.send']).toHaveLength(2);
  });
});
