import { z } from 'zod';

/** The ten tools of spec 001 §6, by their exact names. */
export const TOOL_NAMES = [
  'message_notify_user',
  'message_ask_user',
  'idle',
  'generate_workout',
  'swap_exercise',
  'adjust_exercise',
  'remove_exercise',
  'log_workout',
  'fetch_data',
  'set_current_location',
] as const;

export const ToolNameSchema = z.enum(TOOL_NAMES);
export type ToolName = z.infer<typeof ToolNameSchema>;
