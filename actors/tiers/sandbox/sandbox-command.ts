import { accessSync, constants, readFileSync } from 'node:fs';
import { type SandboxLimits, processMemoryBytes } from './sandbox-limits.ts';

/** A program and its arguments, ready for `child_process.spawn` with an empty environment. */
export interface SandboxCommand {
  file: string;
  args: string[];
  /** True when `prlimit` bounds the process's data segment, file size, core dumps and CPU time. */
  rlimited: boolean;
}

let childSource: string | undefined;
let harnessSource: string | undefined;

/** The harness the child runs in the context before the solution (sandbox-harness.js), read once. */
export function harnessScript(): string {
  harnessSource ??= readFileSync(new URL('./sandbox-harness.js', import.meta.url), 'utf8');
  return harnessSource;
}
let prlimitPath: string | null | undefined;

/**
 * Node's permission-model flag on this version: `--permission` from Node 22.13 / 23.5, before that
 * `--experimental-permission` (Node 20). Without one the sandbox refuses to run at all.
 */
export function permissionFlag(): string {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  throw new Error(
    `Node ${process.version} has no permission model (--permission or --experimental-permission); the sandbox needs Node 20 or later.`,
  );
}

/** Where `prlimit` (util-linux) is, or null: then only the parent's memory polling bounds memory outside the heap. */
export function findPrlimit(): string | null {
  if (prlimitPath !== undefined) return prlimitPath;
  prlimitPath = null;
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin']) {
    try {
      accessSync(`${dir}/prlimit`, constants.X_OK);
      prlimitPath = `${dir}/prlimit`;
      break;
    } catch {
      // not there; try the next place
    }
  }
  return prlimitPath;
}

/**
 * The command that starts one sandbox child: `process.execPath` with the permission model on and no
 * `--allow-*` flag (so no file read or write, no child process, no worker, no addon, no WASI), code
 * generation from strings off in every realm, addons off, the heap capped at `memoryMb`, and the
 * child's source given with `--eval` (it reads no file). With `rlimit` and `prlimit` present, the
 * same program is exec'd by `prlimit` with hard limits on the data segment, file size 0, no core
 * dumps, and CPU seconds.
 */
export function sandboxCommand(limits: SandboxLimits, options: { rlimit: boolean }): SandboxCommand {
  childSource ??= readFileSync(new URL('./sandbox-child.mjs', import.meta.url), 'utf8');
  const node = [
    permissionFlag(),
    '--disable-warning=ExperimentalWarning',
    '--disallow-code-generation-from-strings',
    '--no-addons',
    // Lets the child answer import() itself (see sandbox-child.mjs); the solution never gets a module.
    ...(process.allowedNodeEnvironmentFlags.has('--experimental-vm-modules') ? ['--experimental-vm-modules'] : []),
    `--max-old-space-size=${limits.memoryMb}`,
    '--input-type=module',
    '--eval',
    childSource,
  ];
  const prlimit = options.rlimit ? findPrlimit() : null;
  if (prlimit === null) return { file: process.execPath, args: node, rlimited: false };
  const cpuSeconds = Math.ceil(limits.timeoutMs / 1000) + 10;
  return {
    file: prlimit,
    args: [
      `--data=${processMemoryBytes(limits)}`,
      '--fsize=0',
      '--core=0',
      `--cpu=${cpuSeconds}`,
      '--',
      process.execPath,
      ...node,
    ],
    rlimited: true,
  };
}
