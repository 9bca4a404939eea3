import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileJournal } from '../../../actors/runtime/file-journal.ts';
import { openTaskQueue } from '../../../actors/runtime/task-queue.ts';
import type { TaskLogRecord } from '../../../actors/runtime/task-queue-log.ts';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Runs the workload in a child and kills it with SIGKILL `afterMs` after it is ready; returns what it acknowledged. */
function runAndKill(dir: string, prefix: string, afterMs: number) {
  return new Promise<{ submitted: string[]; completed: string[]; failed: string[] }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/support/crash/task-queue-workload.ts', dir, prefix],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk) => {
      if (!output.includes('ready') && `${output}${chunk}`.includes('ready'))
        setTimeout(() => child.kill('SIGKILL'), afterMs);
      output += chunk;
    });
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.on('error', reject);
    child.on('close', () => {
      // only whole lines were acknowledged
      const lines = output.slice(0, output.lastIndexOf('\n') + 1).split('\n');
      if (!output.includes('ready')) reject(new Error(`the workload never started: ${errors}`));
      resolve({
        submitted: lines.filter((l) => l.startsWith('submitted ')).flatMap((l) => l.split(' ').slice(1)),
        completed: lines.filter((l) => l.startsWith('completed ')).map((l) => l.slice('completed '.length)),
        failed: lines.filter((l) => l.startsWith('failed ')).map((l) => l.slice('failed '.length)),
      });
    });
  });
}

describe('task queue under kill -9', () => {
  it('keeps every acknowledged submission and completion, starts no task before its dependency, and finishes everything after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'task-queue-kill-'));
    dirs.push(dir);
    const submitted: string[] = [];
    const completed: string[] = [];
    const failed: string[] = [];
    for (const [round, afterMs] of [150, 400, 800].entries()) {
      const acked = await runAndKill(dir, `r${round}`, afterMs);
      submitted.push(...acked.submitted);
      completed.push(...acked.completed);
      failed.push(...acked.failed);
      expect(acked.submitted.length).toBeGreaterThan(0);
    }
    expect(completed.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);

    let journal = await openFileJournal<TaskLogRecord>(dir);
    const idle = { worker: { concurrency: 0, executor: async () => null } };
    const reopened = await openTaskQueue({ journal, name: 'kill', workers: idle });
    for (const id of submitted) expect(reopened.get(id), id).toBeDefined();
    for (const id of completed) expect(reopened.get(id)).toMatchObject({ status: 'completed' });
    // a failure told to a listener was on disk: it comes back failed, never to run again by itself
    for (const id of failed) expect(reopened.get(id)).toMatchObject({ status: 'failed', error: { code: 'error' } });
    for (const id of submitted) {
      const view = reopened.get(id)!;
      if (view.status === 'completed') {
        expect(view.result).toEqual({ n: view.input_data });
        for (const dependency of view.dependencies) expect(reopened.get(dependency)?.status).toBe('completed');
      }
    }
    reopened.close();
    await journal.close();

    // with workers again, every task ends completed; one whose every attempt a kill cut is failed
    // `interrupted` (the documented rule), and completes once its owner retries it
    journal = await openFileJournal<TaskLogRecord>(dir);
    const finishing = await openTaskQueue({
      journal,
      name: 'kill',
      workers: { worker: { concurrency: 16, executor: async (task) => ({ n: task.input_data }) } },
    });
    for (const ids of [submitted.filter((id) => !id.endsWith('b')), submitted]) {
      for (const view of await Promise.all(ids.map((id) => finishing.settled(id)))) {
        if (view.status === 'completed') continue;
        expect(['interrupted', 'error']).toContain(view.error?.code);
        await finishing.retry(view.task_id);
      }
    }
    const views = await Promise.all(submitted.map((id) => finishing.settled(id)));
    expect(views.filter((view) => view.status !== 'completed').map((view) => view.task_id)).toEqual([]);
    expect((await readdir(dir)).length).toBeGreaterThan(3); // the index and several generations: compactions were cut too
    finishing.close();
    await journal.close();
  });
});
