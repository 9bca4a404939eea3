import { IdleParamsSchema } from '../../../protocol/trainer/tools/idle.ts';
import { defineTool } from './trainer-tool.ts';

/** What idle reports. */
interface IdleResult {
  idle: true;
  reason: string;
}

/** Signals that every task is done and ends the loop (spec 001 §6.3, §3.2). */
export const idleTool = defineTool<typeof IdleParamsSchema, IdleResult>({
  name: 'idle',
  description: 'Signal that all tasks are complete. Always deliver results with message_notify_user before going idle.',
  parameters: IdleParamsSchema,
  terminal: true,
  statusMessage: { start: 'Wrapping up...', done: 'All done' },
  async execute(args) {
    const result: IdleResult = { idle: true, reason: args.reason };
    return { success: true, ...result };
  },
  formatResult: (result) => `Agent idle: ${result.reason}`,
});
