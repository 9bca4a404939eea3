import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Role, TaskState, taskStateToJSON, type Message, type Part, type StreamResponse } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { a2aClient } from '../http-host/a2a-client.ts';
import type { startRuntime } from '../runtime-harness.ts';

type Harness = Awaited<ReturnType<typeof startRuntime>>;

/** The runtime's app listening on 127.0.0.1 (a free port), and A2A clients of its systems, as a user. */
export async function listen(harness: Harness) {
  let server: ServerType | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: harness.runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    /** The SDK's client of `/a2a/<system>/`, from its card, sending the user's bearer token. */
    client: async (user: string, system: string): Promise<Client> => a2aClient(base, await harness.token(user), system),
    close: () => new Promise<void>((resolve) => server!.close(() => resolve())),
  };
}

/** A user's message: a `data` part, or text. */
export function userMessage(content: { data?: unknown; text?: string }, taskId = '', contextId = ''): Message {
  const parts: Part[] = [];
  if (content.data !== undefined)
    parts.push({
      content: { $case: 'data', value: content.data },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    });
  if (content.text !== undefined)
    parts.push({
      content: { $case: 'text', value: content.text },
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    });
  return {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts,
    taskId,
    contextId,
    extensions: [],
    metadata: {},
    referenceTaskIds: [],
  };
}

/** `SendMessage`'s parameters for a message (blocking unless `returnImmediately`). */
export function send(message: Message, returnImmediately = false) {
  return {
    tenant: '',
    metadata: {},
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
  };
}

/** A stream's events as short lines: `task:submitted`, `status:working`, `artifact:recipes`. */
export async function collect(stream: AsyncGenerator<StreamResponse>) {
  const lines: string[] = [];
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    const payload = event.payload;
    if (payload?.$case === 'task') lines.push(`task:${stateName(payload.value.status?.state)}`);
    if (payload?.$case === 'statusUpdate') lines.push(`status:${stateName(payload.value.status?.state)}`);
    if (payload?.$case === 'artifactUpdate') lines.push(`artifact:${payload.value.artifact?.name}`);
    if (payload?.$case === 'message') lines.push('message');
  }
  return { lines, events };
}

/** `completed` for `TASK_STATE_COMPLETED`. */
export function stateName(state: TaskState | undefined): string {
  return taskStateToJSON(state ?? TaskState.TASK_STATE_UNSPECIFIED)
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace('_', '-');
}
