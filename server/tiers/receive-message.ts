import { compileVersionRule } from '../../protocol/runtime/version-rule.ts';
import { ConflictError, RuntimeError, ValidationError, toErrorIssues } from '../../protocol/runtime/runtime-error.ts';
import { TIERS_VERSION_RULE, TiersEnvelopeSchema, type TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { CancellationPayload } from '../../protocol/tiers/payloads.ts';

const checkVersion = compileVersionRule(TIERS_VERSION_RULE);

/** Spec 002's version rule over HTTP: another major is refused (400), naming the majors read. */
export class VersionNotSupportedError extends RuntimeError {
  override name = 'VersionNotSupportedError';
  constructor(
    message: string,
    readonly supported: number[],
  ) {
    super('version_not_supported', message, 400);
  }
}

/** What receiving an external Monitor's message uses of a tiers service (embedded, or on Restate). */
export interface ExternalMessages {
  /** The dedup service: `work` once per (`receiver`, `id`), duplicates answered with its answer. */
  once(receiver: string, id: string, work: () => Promise<unknown>): Promise<unknown>;
  /** The task a message id belongs to, if known. */
  taskOf(id: string): string | undefined | Promise<string | undefined>;
  owns(user: string, taskId: string): Promise<boolean>;
  cancel(user: string, taskId: string, cancellation: { reason: string; cascade: boolean }): Promise<unknown>;
  idTaken(id: string): Promise<boolean>;
  /** Starts a task with `envelope` (a delegation to the Architect) as its first; answers the task's id. */
  startExternal(user: string, envelope: TiersEnvelope): Promise<string>;
}

/**
 * `POST /tiers/messages`: a spec `Message` from an external Progress Monitor, under the same rules
 * as the tiers' own: its version first, then its schema; a delegation to the Architect starts a
 * task (its `task_data.problem` is the problem), a cancellation cancels the task of the delegation
 * it names. The dedup service answers a duplicate id with the first answer, nothing run again.
 */
export async function receiveMessage(
  service: ExternalMessages,
  user: string,
  body: unknown,
): Promise<{ task_id: string; message_id: string }> {
  const refused = checkVersion(body);
  if (refused?.code === 'version_not_supported')
    throw new VersionNotSupportedError(refused.message, refused.supported ?? []);
  if (refused) throw new ValidationError(refused.message, refused.issues ?? [], 'invalid_envelope');
  const parsed = TiersEnvelopeSchema.safeParse(body);
  if (!parsed.success)
    throw new ValidationError(
      'The message is not a spec 002 Message: fix the fields named in issues.',
      toErrorIssues(parsed.error.issues),
      'invalid_envelope',
    );
  const envelope = parsed.data as TiersEnvelope;
  if (envelope.source_tier !== 'PROGRESS_MONITOR' || envelope.target_tier !== 'ABSTRACT_ARCHITECT') {
    throw new ValidationError(
      'An external Progress Monitor sends to the Architect only.',
      [
        { path: 'source_tier', message: 'Expected PROGRESS_MONITOR.' },
        { path: 'target_tier', message: 'Expected ABSTRACT_ARCHITECT.' },
      ],
      'unknown_edge',
    );
  }
  const answer = await service.once(`external/${user}`, envelope.id, async () => {
    if ('target_message_id' in envelope.payload) {
      const { target_message_id, reason, cascade } = envelope.payload as CancellationPayload;
      const taskId = await service.taskOf(target_message_id);
      if (!taskId || !(await service.owns(user, taskId))) {
        throw new ValidationError(
          `No task of yours was started by message ${target_message_id}.`,
          [{ path: 'payload.target_message_id', message: 'Name a delegation you sent.' }],
          'unknown_delegation',
        );
      }
      await service.cancel(user, taskId, { reason, cascade });
      return { task_id: taskId, message_id: envelope.id };
    }
    if (!('task_type' in envelope.payload)) {
      throw new ValidationError(
        'An external Progress Monitor sends delegations and cancellations only.',
        [{ path: 'payload', message: 'Expected a delegation or a cancellation.' }],
        'invalid_envelope',
      );
    }
    // Message ids are one namespace for the tiers (their dedup and routing key on them): another
    // user's id is refused rather than joined to their task.
    if (await service.idTaken(envelope.id)) {
      throw new ConflictError(
        'message_id_taken',
        `Message id ${envelope.id} is already used by another task: send the delegation under a new UUID.`,
      );
    }
    const taskId = await service.startExternal(user, envelope);
    return { task_id: taskId, message_id: envelope.id };
  });
  return answer as { task_id: string; message_id: string };
}
