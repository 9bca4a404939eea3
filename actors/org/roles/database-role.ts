import type { ApiContract } from '../../../protocol/org/deliverables.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { decide } from '../propose-decision.ts';
import { deliverableNodeId, recordDeliverable } from '../record-deliverable.ts';

/** The database engine a storage decision means. */
const ENGINES: Record<string, string> = { 'offline-first': 'sqlite-with-sync', 'server-only': 'postgres' };

/**
 * `database`: on an accepted API contract it decides storage (the PRD's `storage` constraint, or
 * server-only; an active decision is followed and a clash goes to the chief), then publishes a
 * table per resource and hands the schema to devops.
 */
export const databaseRole: OrgRole = {
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'api_contract') return;
    const { prd } = await turn.ws.prd();
    const demanded = prd.features.flatMap((f) => f.constraints ?? []).find((c) => c.topic === 'storage');
    const storage = await decide(
      turn,
      { topic: 'storage', value: demanded?.value ?? 'server-only' },
      {
        title: demanded ? `Storage: ${demanded.value}` : 'Storage: server-only database',
        content: demanded
          ? `The PRD demands a ${demanded.value} store.`
          : 'Data lives in one server-side database; clients hold no copy.',
        tags: ['architecture', 'database'],
      },
    );
    const body = await turn.produce.dbSchema(
      { contract: receipt.body as ApiContract, engine: ENGINES[storage] ?? storage },
      turn.asking(),
    );
    const schema = await turn.ws.publish('database', 'db_schema', body);
    await recordDeliverable(
      turn,
      schema,
      ['database'],
      [deliverableNodeId(turn.ws.projectId, 'api_contract', receipt.version ?? 1)],
    );
    await initiateHandoff(turn, 'devops', schema);
  },
};
