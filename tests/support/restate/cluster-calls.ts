/** Rows of Restate's introspection SQL (its admin API's `/query`). */
export async function restateQuery(adminUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  if (response.status !== 200)
    throw new Error(`Restate's /query answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
}

/** One call a `tiers-run` object made as a `ctx.run` (named `<agent> <key>`), with its invocation's idempotency key. */
export interface TiersRunCall {
  agent: string;
  key: string;
  /** The invocation's status: `completed` once the call answered. */
  status: string;
}

/**
 * The `ctx.run` calls each task's `tiers-run` object journaled, by task: one invocation per call
 * made at the ingress, each with its idempotency key.
 */
export async function callsByTask(adminUrl: string, tasks: readonly string[]): Promise<Map<string, TiersRunCall[]>> {
  const keys = tasks.map((task) => `'${task.replace(/'/g, "''")}'`).join(', ');
  const rows = await restateQuery(
    adminUrl,
    `select i.target_service_key as task, j.name as name, i.idempotency_key as key, i.status as status from sys_journal j join sys_invocation i on j.id = i.id where i.target_service_name = 'tiers-run' and j.entry_type = 'Command: Run' and i.target_service_key in (${keys})`,
  );
  const calls = new Map<string, TiersRunCall[]>();
  for (const row of rows) {
    const task = String(row.task);
    const [agent = ''] = String(row.name).split(' ');
    calls.set(task, [...(calls.get(task) ?? []), { agent, key: String(row.key), status: String(row.status) }]);
  }
  return calls;
}

/** The pids `npm run start:cluster` printed last: its Restate server's and its service processes'. */
export function processes(stdout: string): { restate: number; workers: number[] } {
  const line = [...stdout.matchAll(/Processes: restate-server (\d+), service processes ([\d ]+)/g)].at(-1);
  if (!line) throw new Error(`The cluster printed no process line:\n${stdout}`);
  return { restate: Number(line[1]), workers: line[2]!.trim().split(' ').map(Number) };
}
