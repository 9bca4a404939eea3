import { readFile } from 'node:fs/promises';
import type { HttpHost } from '../http-host/http-host.ts';
import type { startRuntime } from '../runtime-harness.ts';
import { parseSseEvents } from './tiers-route-app.ts';

export type TiersRuntime = Awaited<ReturnType<typeof startRuntime>>;

/** Whom the helpers below ask: any {@link HttpHost} (embedded or cluster), or a {@link TiersRuntime}. */
export type TiersClient = Pick<HttpHost, 'call' | 'fetch'>;

/** An example body of the README (`examples/<name>`), parsed. */
export async function example(name: string): Promise<any> {
  return JSON.parse(await readFile(new URL(`../../../examples/${name}`, import.meta.url), 'utf8'));
}

/** `POST /tiers/tasks` that must be accepted: the new task's id. */
export async function submitTask(client: TiersClient, user: string, body: unknown): Promise<string> {
  const answer = await client.call(user, 'POST', '/tiers/tasks', body);
  if (answer.status !== 201)
    throw new Error(`POST /tiers/tasks answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.task_id as string;
}

/** The task's events until it settles (`?until=settled`), read to the end of the stream. */
export async function eventsUntilSettled(client: TiersClient, user: string, taskId: string) {
  const response = await client.fetch(user, `/tiers/tasks/${taskId}/events?until=settled`);
  if (response.status !== 200) throw new Error(`events answered ${response.status}: ${await response.text()}`);
  return parseSseEvents(await response.text());
}

/** Waits for the task to settle (by its event stream, no polling) and answers its view. */
export async function settledTask(client: TiersClient, user: string, taskId: string) {
  const events = await eventsUntilSettled(client, user, taskId);
  const view = await client.call(user, 'GET', `/tiers/tasks/${taskId}`);
  return { events, view: view.body };
}

interface TreeNode {
  message_id: string;
  source_tier: string;
  target_tier: string;
  specialist: string | null;
  status: string;
  children: TreeNode[];
}

/** Every delegation of a task's tree, depth first. */
export function treeNodes(tree: TreeNode[]): TreeNode[] {
  return tree.flatMap((node) => [node, ...treeNodes(node.children)]);
}

/** The artifact of a type in an outcome. */
export function artifactOf(outcome: { artifacts: any[] } | null, type: string) {
  return outcome?.artifacts.find((artifact) => artifact.artifact_type === type);
}
