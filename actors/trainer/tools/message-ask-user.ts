import { MessageAskUserParamsSchema } from '../../../protocol/trainer/tools/message-ask-user.ts';
import { defineTool } from './trainer-tool.ts';

/** What message_ask_user reports. */
interface AskUserResult {
  question: string;
  options: string[];
  awaiting_response: true;
}

/** Asks the user a question and ends the loop until they answer (spec 001 §6.3, §3.2). */
export const messageAskUserTool = defineTool<typeof MessageAskUserParamsSchema, AskUserResult>({
  name: 'message_ask_user',
  description:
    'Ask the user a question and wait for their response. This ends the current turn; the next user ' +
    'message continues the session. Offer short answer options when the choices are known.',
  parameters: MessageAskUserParamsSchema,
  terminal: true,
  async execute(args) {
    const result: AskUserResult = { question: args.question, options: args.options ?? [], awaiting_response: true };
    return { success: true, ...result };
  },
  formatResult(result) {
    const options = result.options.length > 0 ? `\nOptions: ${result.options.join(' | ')}` : '';
    return `Question sent to the user; waiting for their response.\nQuestion: ${result.question}${options}`;
  },
});
