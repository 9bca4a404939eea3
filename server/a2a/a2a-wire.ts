import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part, type TaskStatus } from '@a2a-js/sdk';
import type { A2aArtifact, A2aInput, A2aState, A2aStatus } from './a2a-mapping.ts';

const STATES: Record<A2aState, TaskState> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
  rejected: TaskState.TASK_STATE_REJECTED,
};

/** The wire `TaskState` of a mapping's state. */
export function taskStateOf(state: A2aState): TaskState {
  return STATES[state];
}

/** A mapping's state of a wire `TaskState` (`submitted` for one no mapping uses). */
export function a2aStateOf(state: TaskState | undefined): A2aState {
  const found = (Object.keys(STATES) as A2aState[]).find((name) => STATES[name] === state);
  return found ?? 'submitted';
}

/** A `data` part. */
export function dataPart(data: unknown, schema?: string): Part {
  return {
    content: { $case: 'data', value: data },
    metadata: schema ? { schema } : undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/** A `text` part. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** An agent's message of one text part, in a task. */
export function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** An artifact of one `data` part, its schema named in the part's and the artifact's metadata. */
export function toArtifact(artifact: A2aArtifact): Artifact {
  return {
    artifactId: artifact.name,
    name: artifact.name,
    description: artifact.description ?? '',
    parts: [dataPart(artifact.data, artifact.schema)],
    metadata: { schema: artifact.schema },
    extensions: [],
  };
}

/** A wire artifact of one `data` part as the mapping's (what a client holds, to compare with). */
export function fromArtifact(artifact: Artifact): A2aArtifact {
  const content = artifact.parts[0]?.content;
  const schema = artifact.metadata?.schema;
  return {
    name: artifact.name,
    ...(artifact.description ? { description: artifact.description } : {}),
    schema: typeof schema === 'string' ? schema : '',
    data: content?.$case === 'data' ? content.value : undefined,
  };
}

/** The text of a message's first part, if it is text (an agent's status message). */
function textOf(message: Message | undefined): string | undefined {
  const content = message?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
}

/** A task status on the wire, its message an agent's message in the task. */
export function toTaskStatus(status: A2aStatus, taskId: string, contextId: string, timestamp?: string): TaskStatus {
  return {
    state: taskStateOf(status.state),
    message: status.message === undefined ? undefined : agentMessage(status.message, taskId, contextId),
    timestamp,
  };
}

/** A wire task status as the mapping's (what a task was saved with). */
export function fromTaskStatus(status: TaskStatus | undefined): A2aStatus {
  const state = a2aStateOf(status?.state);
  const message = textOf(status?.message);
  return message === undefined ? { state } : { state, message };
}

/** What a user's message carried: its first `data` part, its `text` parts joined. */
export function inputOf(message: Message | undefined): A2aInput {
  const input: A2aInput = {};
  const texts: string[] = [];
  for (const part of message?.parts ?? []) {
    if (part.content?.$case === 'data' && input.data === undefined) input.data = part.content.value;
    if (part.content?.$case === 'text') texts.push(part.content.value);
  }
  if (texts.length > 0) input.text = texts.join('\n\n');
  return input;
}
