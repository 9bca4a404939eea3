import { spawn } from 'node:child_process';

/**
 * Runs `script` (a TypeScript file, through tsx) with `args` in a child process, reads the lines
 * it writes to stdout (each one a step it acknowledged, after an optional `ready`), and kills it
 * with SIGKILL once `lines` of them have come. Resolves with the whole lines read; rejects when
 * the child ends by itself (it should still have been working).
 *
 * @example
 * const acked = await killAfterLines('tests/support/shared-state/state-writer.ts', [dir], 40);
 */
export function killAfterLines(script: string, args: readonly string[], lines: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const read: string[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      read.push(...complete.filter((line) => line !== 'ready'));
      if (read.length >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(read) : reject(new Error(`${script} exited by itself with code ${code}`)),
    );
  });
}
