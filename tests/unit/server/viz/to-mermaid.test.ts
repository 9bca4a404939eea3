import { describe, expect, it } from 'vitest';
import { agentMachine } from '../../../../machines/runtime/agent.ts';
import { MACHINES } from '../../../../machines/registry.ts';
import { machineGraph } from '../../../../server/viz/machine-graph.ts';
import { mermaidId, toMermaid } from '../../../../server/viz/to-mermaid.ts';

describe('toMermaid', () => {
  it('writes the agent as a stateDiagram-v2, nested state inside its parent', () => {
    const text = toMermaid(machineGraph(agentMachine));
    expect(text.split('\n').slice(0, 1)).toEqual(['stateDiagram-v2']);
    expect(text).toContain('  state working {\n    state "running" as working_running\n');
    expect(text).toContain('    [*] --> working_running\n  }');
    expect(text).toContain('  [*] --> idle\n');
    expect(text).toContain('  working_running --> working_running : after agentTimeout [hasAttemptsLeft]\n');
    expect(text).toContain(
      '  working_running --> idle : after agentTimeout [otherwise] / reportTimeout, rememberCurrent\n',
    );
    expect(text).toContain('  %% on agent.request / receiveRequest\n');
  });

  it.each(MACHINES.map((m) => [m.name, m.machine] as const))(
    'has a line per targeted transition of %s, and no character Mermaid would misread',
    (_, machine) => {
      const graph = machineGraph(machine);
      const text = toMermaid(graph);
      const arrows = text
        .split('\n')
        .filter((line) => / --> /.test(line) && !line.includes('[*]') && !line.trim().startsWith('%%'));
      const targeted = graph.transitions
        .filter((t) => t.source !== graph.root)
        .reduce((n, t) => n + t.targets.length, 0);
      expect(arrows).toHaveLength(targeted);
      // `#58;` is how Mermaid spells a colon; nothing else may hold one.
      for (const line of arrows)
        expect(line.split(' : ').slice(1).join(' : ').replace(/#\d+;/g, ''), line).not.toMatch(/[;:]/);
      for (const state of graph.states.filter((s) => s.parent !== null))
        expect(text).toContain(mermaidId(state, graph));
    },
  );
});
