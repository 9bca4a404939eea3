import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('import boundaries (eslint.config.js)', () => {
  let eslint: ESLint;
  beforeAll(async () => {
    eslint = new ESLint({ cwd: root });
    await eslint.lintText('', { filePath: 'server/runtime.ts' }); // loads the config and parser once
  }, 30_000);

  /** The import-boundary messages for a fake file at `filePath` that imports each of `specifiers`. */
  async function boundaryMessages(filePath: string, specifiers: string[]): Promise<string[]> {
    const source = specifiers.map((specifier, i) => `export { x as x${i} } from '${specifier}';\n`).join('');
    const [result] = await eslint.lintText(source, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  }

  it('reports server/runtime.ts importing a system folder', async () => {
    const messages = await boundaryMessages('server/runtime.ts', ['./nutrition/x.ts']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/may not import a system folder/);
  });

  it('reports a runtime file importing a system that has no folder yet', async () => {
    const messages = await boundaryMessages('machines/registry.ts', ['./org/handoff.ts', '../actors/tiers/x.ts']);
    expect(messages).toHaveLength(2);
  });

  it('reports machines/runtime importing server/', async () => {
    const messages = await boundaryMessages('machines/runtime/x.ts', ['../../server/app.ts']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/machines\/ may not import server\//);
  });

  it('reports protocol/ importing actors/', async () => {
    const messages = await boundaryMessages('protocol/nutrition/x.ts', ['../../actors/runtime/ids.ts']);
    expect(messages).toHaveLength(1);
  });

  it("reports a system folder importing another system's folder", async () => {
    const messages = await boundaryMessages('server/trainer/x.ts', ['../nutrition/y.ts']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/trainer system may not import the nutrition system's folder/);
  });

  it('lets a system folder import the runtime, its own folders and layers below', async () => {
    const messages = await boundaryMessages('server/nutrition/x.ts', [
      '../run-host/y.ts',
      '../../machines/runtime/supervisor.ts',
      '../../actors/nutrition/coach/coach-plan.ts',
      '../app.ts',
    ]);
    expect(messages).toEqual([]);
  });

  it('exempts tests/ and bench/ from the system rules', async () => {
    expect(
      await boundaryMessages('tests/unit/x.test.ts', ['../../server/nutrition/y.ts', '../../server/trainer/z.ts']),
    ).toEqual([]);
    expect(
      await boundaryMessages('bench/x-bench.ts', ['../server/nutrition/y.ts', '../machines/trainer/z.ts']),
    ).toEqual([]);
  });

  it('finds no boundary crossed in the real runtime and system folders (server/runtime.ts names no system)', async () => {
    const only = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' });
    const results = await only.lintFiles(['protocol/**/*.ts', 'actors/**/*.ts', 'machines/**/*.ts', 'server/**/*.ts']);
    const crossings = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(crossings).toEqual([]);
    expect(results.map((r) => r.filePath)).toContain(`${root}server/runtime.ts`);
  }, 60_000);
});
