import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import { MessageNotifyUserParamsSchema } from '../../../protocol/trainer/tools/message-notify-user.ts';
import type { ToolContext } from './tool-context.ts';
import { defineTool } from './trainer-tool.ts';

/** What message_notify_user reports: the message, and the artifact it delivered (or a warning). */
interface NotifyUserResult {
  message: string;
  artifact_id?: string;
  artifact?: Artifact;
  warning?: string;
}

async function findArtifact(ctx: ToolContext, artifactId: string): Promise<Artifact | undefined> {
  return (
    ctx.workouts.getArtifact(ctx.sessionId, artifactId) ??
    (await ctx.artifacts?.getArtifact(ctx.userId, ctx.sessionId, artifactId))
  );
}

/**
 * Sends a message to the user, optionally delivering an artifact (spec 001 §6.3). An unknown
 * artifact is not fatal: the message still goes out, with a warning the agent can act on.
 * No status message: this tool *is* the message.
 */
export const messageNotifyUserTool = defineTool<typeof MessageNotifyUserParamsSchema, NotifyUserResult>({
  name: 'message_notify_user',
  description:
    'Send a message to the user without expecting a response. To deliver a workout, pass the artifact_id ' +
    'that generate_workout returned: the user sees no workout until it is delivered this way.',
  parameters: MessageNotifyUserParamsSchema,
  terminal: false,
  async execute(args, ctx) {
    if (args.artifact_id === undefined) return { success: true, message: args.message };
    const artifact = await findArtifact(ctx, args.artifact_id);
    if (!artifact) {
      return {
        success: true,
        message: args.message,
        warning: `Artifact ${args.artifact_id} was not found in this session; the message was sent without it.`,
      };
    }
    return { success: true, message: args.message, artifact_id: artifact.artifact_id, artifact };
  },
  formatResult(result) {
    const lines = [`Message delivered to the user.`];
    if (result.artifact) lines.push(`Artifact ${result.artifact.artifact_id} ("${result.artifact.title}") delivered.`);
    if (result.warning) lines.push(`Warning: ${result.warning}`);
    return lines.join('\n');
  },
  artifactsOf: (result) => (result.artifact ? { delivered: result.artifact } : {}),
});
