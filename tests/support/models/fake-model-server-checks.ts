/** Which rule a request broke. */
export type ViolationRule =
  | 'tool_choice'
  | 'tool_schema'
  | 'max_tokens'
  | 'cache_control_count'
  | 'cache_control_place'
  | 'cache_control_missing'
  | 'tool_result_pairing'
  | 'response_format'
  | 'auth'
  | 'malformed_body'
  | 'unexpected_endpoint'
  | 'unscripted_request';

export interface RuleViolation {
  rule: ViolationRule;
  message: string;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const blocksOf = (content: unknown): Json[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : list(content).filter(isRecord);
const marked = (block: unknown) =>
  isRecord(block) && block['cache_control'] !== undefined && block['cache_control'] !== null;

/** Every place of a Messages request that carries `cache_control`, as a path. */
function cacheControlPaths(body: Json): string[] {
  const paths: string[] = [];
  list(body['tools']).forEach((tool, i) => marked(tool) && paths.push(`tools.${i}`));
  list(body['system']).forEach((block, i) => marked(block) && paths.push(`system.${i}`));
  list(body['messages']).forEach((message, m) => {
    if (!isRecord(message)) return;
    blocksOf(message['content']).forEach((block, b) => marked(block) && paths.push(`messages.${m}.content.${b}`));
  });
  return paths;
}

/** The four breakpoints of spec 001 §4.2: last tool, system prompt, user data, last block of the last message. */
export function allowedBreakpoints(body: Json): string[] {
  const tools = list(body['tools']);
  const system = list(body['system']);
  const messages = list(body['messages']);
  const last = messages.at(-1);
  const lastBlocks = isRecord(last) ? blocksOf(last['content']) : [];
  return [
    ...(tools.length > 0 ? [`tools.${tools.length - 1}`] : []),
    ...system.slice(0, 2).map((_, i) => `system.${i}`),
    ...(lastBlocks.length > 0 ? [`messages.${messages.length - 1}.content.${lastBlocks.length - 1}`] : []),
  ];
}

/** Every tool_use answered by a tool_result in the very next (user) message, and no stray results. */
function pairingViolations(messages: unknown[]): RuleViolation[] {
  const violations: RuleViolation[] = [];
  messages.forEach((message, m) => {
    if (!isRecord(message)) return;
    const blocks = blocksOf(message['content']);
    if (message['role'] === 'assistant') {
      const next = messages[m + 1];
      const answered = new Set(
        isRecord(next) && next['role'] === 'user'
          ? blocksOf(next['content'])
              .filter((b) => b['type'] === 'tool_result')
              .map((b) => b['tool_use_id'])
          : [],
      );
      for (const use of blocks.filter((b) => b['type'] === 'tool_use')) {
        if (!answered.has(use['id'])) {
          violations.push({
            rule: 'tool_result_pairing',
            message: `tool_use ${String(use['id'])} in message ${m} has no tool_result in message ${m + 1}`,
          });
        }
      }
    } else {
      const previous = messages[m - 1];
      const asked = new Set(
        isRecord(previous) && previous['role'] === 'assistant'
          ? blocksOf(previous['content'])
              .filter((b) => b['type'] === 'tool_use')
              .map((b) => b['id'])
          : [],
      );
      for (const result of blocks.filter((b) => b['type'] === 'tool_result')) {
        if (!asked.has(result['tool_use_id'])) {
          violations.push({
            rule: 'tool_result_pairing',
            message: `tool_result ${String(result['tool_use_id'])} in message ${m} answers no tool_use of message ${m - 1}`,
          });
        }
      }
    }
  });
  return violations;
}

/**
 * The rules every Messages request of the agent must follow (spec 001 §3.3, §4.2, §4.3): forced
 * tool use, 8192 output tokens, the four cache breakpoints in their places and no others, and
 * each tool_use answered in the next message.
 */
export function checkAnthropicRequest(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): RuleViolation[] {
  if (!isRecord(body)) return [{ rule: 'malformed_body', message: 'the body is not a JSON object' }];
  const violations: RuleViolation[] = [];
  // The SDK sends the key as x-api-key or, in recent versions, as a bearer token.
  if (!headers['x-api-key'] && !String(headers['authorization'] ?? '').startsWith('Bearer ')) {
    violations.push({ rule: 'auth', message: 'no x-api-key or bearer authorization header' });
  }
  const choice = body['tool_choice'];
  if (!isRecord(choice) || choice['type'] !== 'any') {
    violations.push({
      rule: 'tool_choice',
      message: `tool_choice is ${JSON.stringify(choice)}, expected { type: "any" }`,
    });
  }
  if (body['max_tokens'] !== 8192)
    violations.push({ rule: 'max_tokens', message: `max_tokens is ${String(body['max_tokens'])}, expected 8192` });
  const paths = cacheControlPaths(body);
  const allowed = allowedBreakpoints(body);
  if (paths.length > 4)
    violations.push({
      rule: 'cache_control_count',
      message: `${paths.length} cache_control markers, at most 4 allowed`,
    });
  for (const path of paths.filter((p) => !allowed.includes(p))) {
    violations.push({ rule: 'cache_control_place', message: `cache_control at ${path}, outside the four breakpoints` });
  }
  for (const path of allowed.filter((p) => !paths.includes(p))) {
    violations.push({ rule: 'cache_control_missing', message: `no cache_control at breakpoint ${path}` });
  }
  violations.push(...pairingViolations(list(body['messages'])));
  return violations;
}

/** The initializer's Chat Completions request: a strict JSON Schema response format (spec 001 §5.3). */
export function checkOpenAiRequest(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): RuleViolation[] {
  if (!isRecord(body)) return [{ rule: 'malformed_body', message: 'the body is not a JSON object' }];
  const violations: RuleViolation[] = [];
  if (!String(headers['authorization'] ?? '').startsWith('Bearer '))
    violations.push({ rule: 'auth', message: 'no bearer token' });
  const format = body['response_format'];
  const schema = isRecord(format) ? format['json_schema'] : undefined;
  if (
    !isRecord(format) ||
    format['type'] !== 'json_schema' ||
    !isRecord(schema) ||
    schema['strict'] !== true ||
    !isRecord(schema['schema'])
  ) {
    violations.push({
      rule: 'response_format',
      message: `response_format is ${JSON.stringify(format)?.slice(0, 120)}, expected a strict json_schema`,
    });
  }
  return violations;
}
