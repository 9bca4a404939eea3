import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AnyActorLogic } from 'xstate';
import type { SystemDefinition } from '../../machines/runtime/supervisor-system.ts';
import { recorderAgent } from './recorder-agent.ts';

/** A small system for supervisor tests: agents A, B, C and the external USER. */
export const TestEnvelopeSchema = z.strictObject({
  message_id: z.uuid(),
  from_agent: z.enum(['A', 'B', 'C', 'USER']),
  to_agent: z.enum(['A', 'B', 'C', 'USER', 'GHOST']),
  data_type: z.enum(['note', 'question', 'answer', 'news']),
  payload: z.strictObject({ text: z.string(), n: z.number().int().optional() }),
  run_id: z.string().min(1),
  /** When it expires (ms on the clock); read as the expiry by systems that declare one. */
  expires_at: z.number().int().optional(),
});
export type TestEnvelope = z.infer<typeof TestEnvelopeSchema>;

export function testSystem(
  agents: Record<string, AnyActorLogic> = { A: recorderAgent, B: recorderAgent, C: recorderAgent },
): SystemDefinition {
  return {
    name: 'test',
    envelope: TestEnvelopeSchema,
    routes: [
      { from: 'A', to: 'B', data_type: 'note' },
      { from: 'B', to: 'A', data_type: 'note' },
      { from: 'C', to: 'B', data_type: 'note' },
      { from: 'A', to: 'GHOST', data_type: 'note' },
      { from: 'A', to: 'B', data_type: 'question' },
      { from: 'B', to: 'A', data_type: 'answer' },
      { from: 'A', to: 'topic:news', data_type: 'news' },
      { from: 'B', to: 'USER', data_type: 'note' },
      { from: 'USER', to: 'A', data_type: 'note' },
    ],
    agents,
    topics: { news: ['A', 'B', 'C'] },
    externals: ['USER'],
    partitionOf: (envelope) => (envelope as TestEnvelope).run_id,
  };
}

export function envelope(overrides: Partial<TestEnvelope> = {}): TestEnvelope {
  return {
    message_id: randomUUID(),
    from_agent: 'A',
    to_agent: 'B',
    data_type: 'note',
    payload: { text: 'hello' },
    run_id: 'run-1',
    ...overrides,
  };
}
