import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * Which of `pids` owns the local TCP socket bound to `port` (Linux, from `/proc`): the process
 * whose request a fake server holds, found by the request's remote port. Undefined if none does.
 *
 * @example
 * const worker = await socketOwner(request.socket.remotePort!, workers);
 */
export async function socketOwner(port: number, pids: readonly number[]): Promise<number | undefined> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local && parseInt(local.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}
