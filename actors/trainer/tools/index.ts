/** The trainer's tools (spec 001 §6): the registry, its Anthropic definitions, and `executeTool`. */
export { executeTool } from './execute-tool.ts';
export { TERMINAL_TOOLS, getTool, getToolDefinitions, isToolName, toolRegistry } from './tool-registry.ts';
export { wrapInXml, type ToolOutput } from './tool-result.ts';
export { describePrescription, formatClientWorkout } from './workout-format.ts';
