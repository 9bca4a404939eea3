import type { AnthropicAccess } from '../../../actors/models/model-backends.ts';
import { startFakeModelServer, type AnthropicReply, type FakeModelServer } from '../models/fake-model-server.ts';
import { fakeServerBackends } from '../models/fake-server-backends.ts';
import { checkForcedToolRequest } from './fake-claude-checks.ts';

type Json = Record<string, any>;

/** A fake Claude for the tiers brains: the real Messages wire format, checked by the forced-tool rules. */
export interface FakeClaude {
  server: FakeModelServer;
  /** What the model layer hands a Claude brain, pointed at the fake server (no SDK retries). */
  access: AnthropicAccess;
  /** How the next requests are answered, `index` counting from 0 since this call (default: no reply, a 400). */
  answer(reply: (body: Json, index: number) => AnthropicReply): void;
  /** The Messages request bodies received so far. */
  bodies(): Json[];
}

/** Answers with the forced tool, called with `input`. */
export const submit =
  (input: unknown) =>
  (body: Json): AnthropicReply => ({
    toolUse: { name: body['tool_choice']?.name ?? body['tools'][0].name, input: input as Record<string, unknown> },
  });

/**
 * Starts the fake server (`tests/support/models/`) with `checkForcedToolRequest` as its Messages rules.
 *
 * @example
 * const claude = await startFakeClaude();
 * claude.answer(submit(plan));
 * await claudeArchitect(claude.access).plan(input);
 */
export async function startFakeClaude(): Promise<FakeClaude> {
  let reply: ((body: Json, index: number) => AnthropicReply) | undefined;
  let answered = 0;
  const server = await startFakeModelServer({
    anthropicRules: checkForcedToolRequest,
    anthropic: (body) =>
      reply ? reply(body, answered++) : { error: { status: 400, message: 'no answer scripted for this test' } },
  });
  const access = fakeServerBackends(server).choose<AnthropicAccess>({
    offline: () => {
      throw new Error('The fake server backends have a key; offline was chosen.');
    },
    anthropic: (given) => given,
  });
  return {
    server,
    access,
    answer(next) {
      reply = next;
      answered = 0;
    },
    bodies: () => server.requests.filter((r) => r.endpoint === 'anthropic').map((r) => r.body as Json),
  };
}
