import type { z } from 'zod';
import { callForcedTool, ModelAnswerError, type CallTokens } from '../../../models/forced-tool-call.ts';
import type { ModelProvider } from '../../../models/model-provider.ts';
import type { Components } from '../../../../protocol/coscientist/memory-content.ts';
import { componentsKey } from '../../knowledge/knowledge-base.ts';
import type { DomainKnowledge } from '../../knowledge/knowledge-types.ts';
import type { AgentContext } from '../agent-context.ts';

/** Claude through the model layer: its provider and the configured model (`PRIMARY_MODEL`). */
export interface ClaudeAccess {
  provider: ModelProvider;
  model: string;
}

/** One agent's question: its role, the JSON it is given, and the one tool it must call. */
export interface AgentQuestion<S extends z.ZodType> {
  system: string;
  input: Record<string, unknown>;
  tool: { name: string; description: string; schema: S };
}

/**
 * Asks Claude one forced tool call for a task (aborted with the task's signal), validated by the
 * tool's zod schema; `faults` then checks what a schema cannot (ids that must exist, counts) and
 * refuses the answer with `ModelAnswerError` naming each fault.
 *
 * @example
 * const value = await askClaude(access, context, { system, input, tool }, (v) => faultsOf(v));
 */
export async function askClaude<S extends z.ZodType>(
  access: ClaudeAccess,
  context: Pick<AgentContext, 'signal'>,
  question: AgentQuestion<S>,
  faults: (value: z.output<S>) => string[] = () => [],
): Promise<{ value: z.output<S>; tokens: CallTokens }> {
  const { value, tokens } = await callForcedTool({
    provider: access.provider,
    model: access.model,
    system: question.system,
    prompt: JSON.stringify(question.input),
    tool: question.tool,
    signal: context.signal,
  });
  const found = faults(value);
  if (found.length > 0) throw new ModelAnswerError(question.tool.name, found.join('; '), tokens);
  return { value, tokens };
}

/** The domain's parts as Claude is shown them: ids to compose hypotheses from, with what they are. */
export function knowledgeOptions(knowledge: DomainKnowledge) {
  return {
    subject: knowledge.subject,
    model_system: knowledge.model,
    interventions: knowledge.interventions.map(({ id, name, concepts }) => ({ id, name, concepts })),
    targets: knowledge.targets.map(({ id, name, concepts }) => ({ id, name, concepts })),
    mechanisms: knowledge.mechanisms.map(({ id, name, concepts, targets }) => ({ id, name, concepts, targets })),
  };
}

/** What is wrong with proposed combinations: unknown parts, one already taken, or two alike. */
export function componentFaults(
  knowledge: DomainKnowledge,
  proposed: readonly Components[],
  taken: ReadonlySet<string>,
): string[] {
  const faults: string[] = [];
  const ids = {
    intervention: new Set(knowledge.interventions.map((i) => i.id)),
    target: new Set(knowledge.targets.map((t) => t.id)),
    mechanism: new Set(knowledge.mechanisms.map((m) => m.id)),
  };
  const seen = new Set<string>();
  for (const [n, components] of proposed.entries()) {
    for (const part of ['intervention', 'target', 'mechanism'] as const)
      if (!ids[part].has(components[part]))
        faults.push(`hypothesis ${n + 1} names an unknown ${part} "${components[part]}"`);
    const key = componentsKey(components);
    if (taken.has(key) || seen.has(key)) faults.push(`hypothesis ${n + 1} repeats the combination ${key}`);
    seen.add(key);
  }
  return faults;
}
