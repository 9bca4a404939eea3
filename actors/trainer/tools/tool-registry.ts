import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { z } from 'zod';
import { RuntimeError } from '../../../protocol/runtime/runtime-error.ts';
import { TOOL_NAMES, type ToolName } from '../../../protocol/trainer/tools/tool-name.ts';
import { adjustExerciseTool } from './adjust-exercise.ts';
import { fetchDataTool } from './fetch-data.ts';
import { generateWorkoutTool } from './generate-workout.ts';
import { idleTool } from './idle.ts';
import { logWorkoutTool } from './log-workout.ts';
import { messageAskUserTool } from './message-ask-user.ts';
import { messageNotifyUserTool } from './message-notify-user.ts';
import { removeExerciseTool } from './remove-exercise.ts';
import { setCurrentLocationTool } from './set-current-location.ts';
import { swapExerciseTool } from './swap-exercise.ts';
import { toInputSchema } from './tool-input-schema.ts';
import type { TrainerTool } from './trainer-tool.ts';

/**
 * Every tool by name (spec 001 §6.1 `TOOL_REGISTRY`): communication, exercise, data and location
 * tools. Listed in the order the model sees them.
 */
export const toolRegistry = {
  message_notify_user: messageNotifyUserTool,
  message_ask_user: messageAskUserTool,
  idle: idleTool,
  generate_workout: generateWorkoutTool,
  swap_exercise: swapExerciseTool,
  adjust_exercise: adjustExerciseTool,
  remove_exercise: removeExerciseTool,
  log_workout: logWorkoutTool,
  fetch_data: fetchDataTool,
  set_current_location: setCurrentLocationTool,
} as const satisfies Record<ToolName, RegisteredTool>;

/** A tool of the registry, its argument and result types erased. */
export type RegisteredTool = TrainerTool<z.ZodType, object>;

/** Whether `name` is a registered tool. */
export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolRegistry, name);
}

/** The tool called `name`; throws a RuntimeError `unknown_tool` for any other name (spec 001 §12.4). */
export function getTool(name: string): RegisteredTool {
  if (!isToolName(name)) {
    throw new RuntimeError('unknown_tool', `Unknown tool: ${name}. Available tools: ${TOOL_NAMES.join(', ')}.`, 400);
  }
  return toolRegistry[name] as RegisteredTool;
}

/** The loop stops after these tools succeed (spec 001 §3.2). */
export const TERMINAL_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((name) => toolRegistry[name].terminal);

interface ToolDefinitionOptions {
  /** Put `cache_control: ephemeral` on the last tool (spec 001 §4.2, cache breakpoint 1). */
  cacheLastTool?: boolean;
}

/** The tools in Anthropic's `Tool[]` shape, their input schemas generated from the zod schemas. */
export function getToolDefinitions(options: ToolDefinitionOptions = {}): Tool[] {
  const tools: Tool[] = TOOL_NAMES.map((name) => {
    const tool = toolRegistry[name] as RegisteredTool;
    return { name, description: tool.description, input_schema: toInputSchema(tool.parameters) };
  });
  const last = tools[tools.length - 1];
  if (options.cacheLastTool && last) tools[tools.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  return tools;
}
