import { randomUUID } from 'node:crypto';
import type { SystemDefinition } from '../../../machines/runtime/supervisor-system.ts';
import {
  COSCIENTIST_ADDRESSING,
  CoscientistEnvelopeSchema,
  type CoscientistEnvelope,
} from '../../../protocol/coscientist/envelope.ts';
import { recorderAgent } from '../recorder-agent.ts';

/**
 * A small co-scientist system (spec 003's envelope, recorder agents): only SUPERVISOR may
 * broadcast, which its routing table says; EVOLUTION is a valid name that runs no agent here.
 */
export function coscientistTestSystem(): SystemDefinition {
  return {
    name: 'coscientist-test',
    envelope: CoscientistEnvelopeSchema,
    addressing: COSCIENTIST_ADDRESSING,
    routes: [
      { from: 'SUPERVISOR', to: 'broadcast', data_type: 'research_plan' },
      { from: 'SUPERVISOR', to: 'GENERATION', data_type: 'task' },
      { from: 'SUPERVISOR', to: 'EVOLUTION', data_type: 'task' },
      { from: 'GENERATION', to: 'SUPERVISOR', data_type: 'result' },
    ],
    agents: { SUPERVISOR: recorderAgent, GENERATION: recorderAgent, REFLECTION: recorderAgent, RANKING: recorderAgent },
    partitionOf: () => 'goal-1',
  };
}

/** A co-scientist message, SUPERVISOR -> GENERATION : task unless told otherwise. */
export function coscientistMessage(
  header: Partial<CoscientistEnvelope['header']> = {},
  routing: Partial<CoscientistEnvelope['routing']> = {},
): CoscientistEnvelope {
  return {
    header: {
      message_id: randomUUID(),
      source_agent: 'SUPERVISOR',
      target_agent: 'GENERATION',
      timestamp: '2026-03-01T09:00:00Z',
      message_type: 'task',
      ...header,
    },
    payload: { data: { round: 1 }, metadata: { task_id: 'task-1' } },
    routing: { priority: 5, ...routing },
  };
}
