import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A Restate service process (`entry`, run with tsx) on `port`; resolves once it printed `ready`. */
export async function startWorker(entry: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}) before it was ready: ${output}`)));
  });
  return child;
}

/** Kills `child` with SIGKILL (kill -9) and resolves once it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
