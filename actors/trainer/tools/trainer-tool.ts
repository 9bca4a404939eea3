import type { z } from 'zod';
import type { Artifact } from '../../../protocol/trainer/artifact.ts';
import type { ToolName } from '../../../protocol/trainer/tools/tool-name.ts';
import type { ToolContext } from './tool-context.ts';
import type { StatusMessage, ToolResult, ToolSuccess } from './tool-result.ts';

/**
 * One tool of the registry (spec 001 §6.1 `ToolDefinition`). `parameters` is the zod schema the
 * arguments are validated with and the JSON Schema the model sees is generated from; `execute`
 * receives arguments that already passed it.
 */
export interface TrainerTool<Params extends z.ZodType = z.ZodType, Result extends object = Record<string, unknown>> {
  name: ToolName;
  description: string;
  parameters: Params;
  /** The loop stops after a successful call (spec 001 §3.2: `idle`, `message_ask_user`). */
  terminal: boolean;
  statusMessage?: StatusMessage;
  /**
   * The tool changes the user's stored data (history, locations): the loop runs it only once its
   * call is on disk, so the journal never lacks the cause of a change the store holds.
   */
  writesUserData?: boolean;
  execute(args: z.infer<Params>, ctx: ToolContext): Promise<ToolResult<Result>>;
  /** The text the model reads about a successful call (failures are formatted alike for all tools). */
  formatResult(result: ToolSuccess<Result>): string;
  /** Artifacts the call created or delivered, for the loop's `artifact` event and SSE. */
  artifactsOf?(result: ToolSuccess<Result>, ctx: ToolContext): { created?: Artifact; delivered?: Artifact };
}

/** Declares a tool with its argument and result types inferred. */
export function defineTool<Params extends z.ZodType, Result extends object>(
  tool: TrainerTool<Params, Result>,
): TrainerTool<Params, Result> {
  return tool;
}
