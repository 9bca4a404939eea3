import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OFFLINE_HANDLERS } from '../../../../actors/nutrition/offline-brains.ts';
import { runChain, sampleChainCases } from '../../../support/nutrition/offline-brain-chain.ts';

// The offline brains' outputs, byte for byte, against a golden file recorded from the code before
// the brains were optimised (issue 10): any change to any envelope of any step fails. The file
// holds one SHA-256 per step and case (the full texts would be tens of megabytes); the case and
// step that differ are named. To record it again on purpose: GOLDEN_UPDATE=1 npx vitest run <this file>.

const GOLDEN = fileURLToPath(new URL('./offline-brains.golden.json', import.meta.url));
const SEED = 20_251_006;
const CASES = 300;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('offline brains against the golden outputs', () => {
  it('give the same envelopes, byte for byte, for every step of 300 varied intakes and re-runs', async () => {
    const cases = sampleChainCases(SEED, CASES);
    const actual: Record<string, string>[] = [];
    for (const chainCase of cases) {
      const record = await runChain(OFFLINE_HANDLERS, chainCase);
      actual.push(Object.fromEntries(Object.entries(record).map(([step, text]) => [step, sha(text)])));
    }
    if (process.env.GOLDEN_UPDATE === '1') writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
    expect(existsSync(GOLDEN), 'the golden file is committed').toBe(true);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>[];
    expect(golden).toHaveLength(CASES);
    const differences = actual.flatMap((steps, index) =>
      [...new Set([...Object.keys(steps), ...Object.keys(golden[index] ?? {})])]
        .filter((step) => steps[step] !== golden[index]?.[step])
        .map((step) => `case ${index} ${step}`),
    );
    expect(differences).toEqual([]);
  }, 300_000);

  it('covers every brain and varied outcomes (so that the comparison means something)', async () => {
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>[];
    const steps = new Set(golden.flatMap((record) => Object.keys(record)));
    for (const step of ['INTAKE', 'SCIENTIST', 'PHYSICIAN', 'NUTRITIONIST', 'DIETITIAN', 'CHEF', 'COACH'])
      expect(steps).toContain(step);
    expect(steps).toContain('DIETITIAN_RERUN');
    expect(steps).toContain('CHEF_RERUN');
    // Different intakes give different plans and recipes: the cases are not one case 300 times.
    for (const step of ['DIETITIAN', 'CHEF', 'COACH'])
      expect(new Set(golden.map((record) => record[step])).size).toBeGreaterThan(CASES / 2);
  });
});
