import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../../server/node-flags.ts';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the server’s Node flags', () => {
  it('are the ones npm start, start:cluster and the benches run with, so that tests and benches run the server as users do', () => {
    expect(scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx server/main.ts`);
    expect(scripts['start:cluster']).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx server/cluster-main.ts`);
    // The in-process benches measure the runtime as the server runs it, both sides of each ratio.
    expect(scripts.bench).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx bench/run.ts`);
  });
});
