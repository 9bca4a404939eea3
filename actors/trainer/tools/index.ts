/** The trainer's tools (spec 001 §6): the registry, its Anthropic definitions, and `executeTool`. */
export { executeTool } from './execute-tool.ts';
export {
  TERMINAL_TOOLS,
  getTool,
  getToolDefinitions,
  isToolName,
  toolRegistry,
  type RegisteredTool,
  type ToolDefinitionOptions,
} from './tool-registry.ts';
export type { ArtifactLookup, ToolContext } from './tool-context.ts';
export {
  formatFailure,
  toolFailure,
  wrapInXml,
  type StatusMessage,
  type ToolFailure,
  type ToolFailureCode,
  type ToolOutput,
  type ToolResult,
  type ToolSuccess,
} from './tool-result.ts';
export type { TrainerTool } from './trainer-tool.ts';
export { toInputSchema } from './tool-input-schema.ts';
export { describeExercise, describePrescription, formatClientWorkout, formatWorkout } from './workout-format.ts';
export { summarizeWorkout, type WorkoutSummary } from './workout-summary.ts';
