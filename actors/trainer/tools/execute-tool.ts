import { RuntimeError, toErrorIssues } from '../../../protocol/runtime/runtime-error.ts';
import type { ToolContext } from './tool-context.ts';
import { getTool, type RegisteredTool } from './tool-registry.ts';
import { formatFailure, toolFailure, wrapInXml, type ToolFailure, type ToolOutput } from './tool-result.ts';

function failedOutput(name: string, failure: ToolFailure, tool?: RegisteredTool): ToolOutput {
  const rawFormatted = formatFailure(failure);
  return {
    tool: name,
    result: failure,
    formatted: wrapInXml(name, rawFormatted, true),
    rawFormatted,
    status: 'failed',
    terminal: false,
    ...(tool?.statusMessage ? { statusMessage: tool.statusMessage } : {}),
  };
}

/** Why a call's arguments were refused, naming each bad field. */
function invalidArguments(name: string, issues: ReturnType<typeof toErrorIssues>): ToolFailure {
  const detail = issues.map((issue) => `${issue.path || '(arguments)'}: ${issue.message}`).join('; ');
  return toolFailure('invalid_arguments', `Invalid arguments for ${name}: ${detail}`, issues);
}

/**
 * Runs one tool call (spec 001 §6.2): finds the tool, validates the raw arguments with its zod
 * schema, executes it and formats the result wrapped in XML. It never throws: an unknown tool,
 * invalid arguments or a tool that throws become a failed result the loop continues from
 * (spec 001 §12.1), with `error` naming the bad field.
 *
 * @example
 * const output = await executeTool('idle', { reason: 'done' }, ctx);
 * if (output.createdArtifact) await events.appendEvent(sessionId, 'artifact', output.createdArtifact);
 * if (output.terminal) stop();
 */
export async function executeTool(name: string, rawArgs: unknown, ctx: ToolContext): Promise<ToolOutput> {
  let tool: RegisteredTool;
  try {
    tool = getTool(name);
  } catch (error) {
    const message = error instanceof RuntimeError ? error.message : `Unknown tool: ${name}`;
    return failedOutput(name, toolFailure('unknown_tool', message));
  }
  const parsed = tool.parameters.safeParse(rawArgs);
  if (!parsed.success) return failedOutput(name, invalidArguments(name, toErrorIssues(parsed.error.issues)), tool);
  try {
    const result = await tool.execute(parsed.data, ctx);
    if (!result.success) return failedOutput(name, result, tool);
    const rawFormatted = tool.formatResult(result);
    const artifacts = tool.artifactsOf?.(result, ctx) ?? {};
    return {
      tool: name,
      result,
      formatted: wrapInXml(name, rawFormatted, false),
      rawFormatted,
      status: 'done',
      terminal: tool.terminal,
      ...(tool.statusMessage ? { statusMessage: tool.statusMessage } : {}),
      ...(artifacts.created ? { createdArtifact: artifacts.created } : {}),
      ...(artifacts.delivered ? { deliveredArtifact: artifacts.delivered } : {}),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failedOutput(name, toolFailure('execution_failed', `${name} failed: ${message}`), tool);
  }
}
