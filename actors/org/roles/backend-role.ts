import type { ApiContract, Stories } from '../../../protocol/org/deliverables.ts';
import type { ErrorIssue } from '../../../protocol/runtime/http-error.ts';
import { initiateHandoff } from '../handoff-steps.ts';
import type { OrgRole } from '../org-role.ts';
import { decide } from '../propose-decision.ts';
import { deliverableNodeId, recordDeliverable } from '../record-deliverable.ts';
import type { Turn } from '../turn.ts';
import { locationOf } from '../workspace.ts';

async function publishContract(
  turn: Turn,
  stories: Stories,
  storiesVersion: number,
  fix?: { issues: readonly ErrorIssue[] },
) {
  const body = await turn.produce.apiContract({ stories }, turn.asking(fix?.issues));
  const contract = await turn.ws.publish('backend', 'api_contract', body);
  const reinitiate = fix !== undefined;
  await recordDeliverable(
    turn,
    contract,
    ['api', 'architecture'],
    [deliverableNodeId(turn.ws.projectId, 'stories', storiesVersion)],
  );
  await initiateHandoff(turn, 'frontend', contract, { reinitiate });
  await initiateHandoff(turn, 'database', contract);
}

/**
 * `backend`: publishes an API contract (JSON Schema per endpoint) from the stories and hands it to
 * frontend and database. On amended stories it first re-offers the contract it published to
 * frontend for revalidation (no rebuild unless asked); a rejection makes it rebuild from the
 * current stories and re-initiate.
 */
export const backendRole: OrgRole = {
  async onAccepted(turn, receipt) {
    if (receipt.type !== 'stories') return;
    const stories = receipt.body as Stories;
    const published = await turn.ws.deliverable<ApiContract>('api_contract');
    if (published && published.body.prd_version < stories.prd_version) {
      await initiateHandoff(
        turn,
        'frontend',
        { ...published, location: locationOf('api_contract', published.version) },
        {
          checks: [`re-offered unchanged for PRD v${stories.prd_version}`],
        },
      );
      return;
    }
    if (published) return;
    await decide(
      turn,
      { topic: 'api-style', value: 'rest-json' },
      {
        title: 'REST over JSON, JSON Schema contracts',
        content: 'Endpoints are REST resources with JSON bodies described by JSON Schema.',
        tags: ['api', 'architecture'],
      },
    );
    await publishContract(turn, stories, receipt.version ?? 1);
  },
  async onRejected(turn, { type, verdict }) {
    if (type !== 'api_contract') return;
    const stories = await turn.ws.deliverable<Stories>('stories');
    if (stories) await publishContract(turn, stories.body, stories.version, { issues: verdict.issues });
  },
};
