import type { RuleViolation } from '../models/fake-model-server-checks.ts';

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The rules of a tiers brain's Messages request: authenticated, 8192 output tokens, exactly the
 * tools it offers with an object `input_schema` each, and `tool_choice: { type: 'tool', name }`
 * forcing one of them. Pass as `startFakeModelServer({ anthropicRules: checkForcedToolRequest })`.
 */
export function checkForcedToolRequest(
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): RuleViolation[] {
  if (!isRecord(body)) return [{ rule: 'malformed_body', message: 'the body is not a JSON object' }];
  const violations: RuleViolation[] = [];
  if (!headers['x-api-key'] && !String(headers['authorization'] ?? '').startsWith('Bearer '))
    violations.push({ rule: 'auth', message: 'no x-api-key or bearer authorization header' });
  if (body['max_tokens'] !== 8192)
    violations.push({ rule: 'max_tokens', message: `max_tokens is ${String(body['max_tokens'])}, expected 8192` });
  const tools = Array.isArray(body['tools']) ? body['tools'].filter(isRecord) : [];
  for (const tool of tools) {
    const schema = tool['input_schema'];
    if (!isRecord(schema) || schema['type'] !== 'object')
      violations.push({ rule: 'tool_schema', message: `tool ${String(tool['name'])} has no object input_schema` });
  }
  const choice = body['tool_choice'];
  const names = tools.map((t) => t['name']);
  if (!isRecord(choice) || choice['type'] !== 'tool' || !names.includes(choice['name'])) {
    violations.push({
      rule: 'tool_choice',
      message: `tool_choice is ${JSON.stringify(choice)}, expected { type: "tool", name } naming one of ${JSON.stringify(names)}`,
    });
  }
  return violations;
}
