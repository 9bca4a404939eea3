import { describe, expect, it } from 'vitest';
import { storiesFromPrd } from '../../../actors/org/deliverables/stories-from-prd.ts';
import { amendmentTask } from '../../../actors/org/project-tasks.ts';
import { orgMessage } from '../../../actors/org/org-envelope.ts';
import { handoffsOfJournal } from '../../../machines/org/handoffs-of-journal.ts';
import { channelFor } from '../../../protocol/org/channels.ts';
import type { OrgEnvelope } from '../../../protocol/org/envelope.ts';
import { isRoutedRecord } from '../../../protocol/runtime/ack-record.ts';
import { stopAgent } from '../../support/ack-harness.ts';
import { EXTERNAL_HANDOFF_ID, externalContractHandoff } from '../../support/org/external-handoff.ts';
import { SHOP_PRD, startOrgProject } from '../../support/org/org-harness.ts';

const receiversOf = (m: OrgEnvelope) =>
  Array.isArray(m.destination_agent) ? m.destination_agent : [m.destination_agent];

describe('the org protocol through the supervisor (offline brains)', () => {
  it('runs a PRD to a deploy plan with every handoff accepted, every request acked and answered on its channel', async () => {
    const h = startOrgProject();
    await h.open();
    const handoffs = handoffsOfJournal(await h.records());
    expect(handoffs.map((x) => x.handoff_id).sort()).toEqual(
      [
        'backend>database:api_contract#1',
        'backend>frontend:api_contract#1',
        'database>devops:db_schema#1',
        'devops>sdte:deploy_plan#1',
        'frontend>sdte:ui_plan#1',
        'growth>frontend:experiments#1',
        'product>backend:stories#1',
        'product>growth:stories#1',
        'product>sdte:stories#1',
        'sdte>devops:test_plan#1',
      ].sort(),
    );
    for (const handoff of handoffs) {
      expect(handoff.state).toBe('accepted');
      expect(handoff.history.map((step) => step.state)).toEqual(['notified', 'validating', 'accepted']);
    }
    const messages = await h.messages();
    const records = await h.records();
    for (const request of messages.filter((m) => m.message_type === 'request')) {
      for (const receiver of receiversOf(request)) {
        const response = messages.find(
          (m) => m.message_type === 'response' && m.context?.related_messages?.[0] === request.message_id,
        );
        expect(response?.source_agent, `${request.message_id} answered`).toBe(receiver);
        expect(response?.destination_agent).toBe(request.source_agent);
        expect(channelFor(response!.source_agent, request.source_agent, 'response')?.id).toBe(
          channelFor(request.source_agent, receiver, 'request')?.id,
        );
        expect(records).toContainEqual(
          expect.objectContaining({ kind: 'ack.acked', message_id: request.message_id, receiver }),
        );
      }
    }
    const decisions = await h.ws.knowledge.query({ type: 'decision', status: 'active' });
    expect(decisions.map((d) => d.claim)).toEqual(
      expect.arrayContaining([
        { topic: 'api-style', value: 'rest-json' },
        { topic: 'storage', value: 'server-only' },
      ]),
    );
    const deliverables = await h.ws.knowledge.query({ type: 'deliverable' });
    expect(deliverables.map((d) => d.title).sort()).toEqual([
      'api_contract v1',
      'db_schema v1',
      'deploy_plan v1',
      'experiments v1',
      'stories v1',
      'test_plan v1',
      'ui_plan v1',
    ]);
    expect(await h.ws.escalations()).toEqual([]);
  });

  it('gets the contract handoff rejected once after the PRD is amended, fixed by backend and accepted', async () => {
    const h = startOrgProject();
    await h.open();
    const { prd } = await h.ws.prd();
    const amended = {
      ...prd,
      features: [...prd.features, { id: 'wishlist', title: 'Saved wishlist', acceptance_criteria: ['Save an item'] }],
    };
    await h.ws.put('user', 'prd', { version: 2, prd: amended });
    h.send([amendmentTask({ projectId: h.projectId, sprintId: 'sprint-1', at: h.clock.now(), prdVersion: 2 })]);
    await h.settle();
    const handoffs = handoffsOfJournal(await h.records());
    const contract = handoffs.find((x) => x.handoff_id === 'backend>frontend:api_contract#2')!;
    expect(contract.history.map((step) => step.state)).toEqual([
      'notified',
      'validating',
      'rejected',
      'notified',
      'validating',
      'accepted',
    ]);
    expect(contract.history[2]!.issues).toEqual([
      { path: 'endpoints', message: expect.stringContaining('no endpoint for story S-wishlist') },
    ]);
    expect(handoffs.filter((x) => x.state !== 'accepted')).toEqual([]);
    expect((await h.ws.deliverable('api_contract'))?.version).toBe(2);
  });

  it('redelivers a request its receiver never acks, then escalates it to the chief (not a rejection)', async () => {
    const h = startOrgProject();
    stopAgent(h.child('growth'));
    await h.open();
    for (let n = 0; n < 6; n += 1) {
      h.clock.increment(31_000);
      await h.settle();
    }
    const records = await h.records();
    const notice = (await h.messages()).find((m) => m.destination_agent === 'growth' && m.message_type === 'request')!;
    const armed = records.filter(
      (r) => !isRoutedRecord(r) && r.kind === 'ack.armed' && r.message_id === notice.message_id,
    );
    expect(armed.map((r) => (r as { attempt: number }).attempt)).toEqual([1, 2, 3, 4]);
    expect(records).toContainEqual(
      expect.objectContaining({
        kind: 'ack.undeliverable',
        message_id: notice.message_id,
        receiver: 'growth',
        attempts: 4,
      }),
    );
    const escalation = (await h.messages()).find((m) => m.message_type === 'escalation')!;
    expect(escalation).toMatchObject({
      source_agent: 'product',
      destination_agent: 'chief-orchestration',
      payload: { conflict_type: 'resource', agents_involved: ['product', 'growth'] },
      context: { related_messages: [notice.message_id] },
    });
    const handoff = handoffsOfJournal(records).find((x) => x.to === 'growth')!;
    expect(handoff).toMatchObject({ state: 'undeliverable', rejections: 0 });
    expect(await h.ws.escalations()).toEqual([
      expect.objectContaining({ escalation_id: escalation.message_id, status: 'awaiting_user', resolver: 'user' }),
    ]);
  });

  it('refuses a message whose sender and receiver share no channel, with its own code', async () => {
    const h = startOrgProject();
    await h.ws.put('user', 'prd', { version: 1, prd: SHOP_PRD });
    const stray = orgMessage({
      from: 'growth',
      to: 'database',
      type: 'request',
      priority: 'low',
      payload: { task_id: 't', content: { kind: 'plan_prd' } },
      prdId: h.projectId,
      sprintId: 'sprint-1',
      seed: ['stray'],
      at: h.clock.now(),
    });
    h.send([stray]);
    await h.settle();
    const rejected = h.emitted.find((e) => e.type === 'supervisor.rejected');
    expect(rejected).toMatchObject({
      error: { code: 'outside_channel', message: expect.stringContaining('growth and database share no channel') },
    });
    expect(await h.messages()).toEqual([]);
  });

  it('refuses a message citing a node the knowledge graph lacks before routing, with its own code', async () => {
    const h = startOrgProject();
    await h.ws.put('user', 'prd', { version: 1, prd: SHOP_PRD });
    await h.knowledge.load(h.projectId, h.owner);
    const note = (refs: string[], seed: string) =>
      orgMessage({
        from: 'product',
        to: 'frontend',
        type: 'notification',
        priority: 'low',
        payload: { task_id: 't', content: { kind: 'fyi' } },
        prdId: h.projectId,
        sprintId: 'sprint-1',
        knowledgeRefs: refs,
        seed: [seed],
        at: h.clock.now(),
      });
    const stray = note(['no-such-node'], 'stray');
    h.send([stray]);
    await h.settle();
    expect(h.emitted.find((e) => e.type === 'supervisor.rejected')).toMatchObject({
      error: { code: 'unknown_reference', issues: [{ path: 'context.knowledge_graph_refs' }] },
      envelope: stray,
    });
    expect(await h.messages()).toEqual([]);
    expect(await h.ws.turn('frontend', stray.message_id)).toBeUndefined();
    const node = await h.ws.knowledge.record('product', {
      node_id: 'n-1',
      node_type: 'decision',
      title: 'Cart first',
      content: 'The cart ships first.',
      author_agent: 'product',
      sprint_id: 'sprint-1',
      tags: ['priority'],
      project_id: h.projectId,
    });
    const cited = note([node.node_id], 'cited');
    h.send([cited]);
    await h.settle();
    expect((await h.messages()).map((m) => m.message_id)).toEqual([cited.message_id]);
  });

  it('escalates a deliverable rejected twice on the same pair, with no third try', async () => {
    const h = startOrgProject();
    await h.ws.put('user', 'prd', { version: 1, prd: SHOP_PRD });
    await h.ws.publish('product', 'stories', storiesFromPrd(SHOP_PRD, 1));
    const handoff = (n: number) =>
      externalContractHandoff({ prdId: h.projectId, sprintId: 'sprint-1', at: h.clock.now(), n });
    h.send([handoff(1)]);
    await h.settle();
    h.send([handoff(2)]);
    await h.settle();
    const [view] = handoffsOfJournal(await h.records());
    expect(view).toMatchObject({ handoff_id: EXTERNAL_HANDOFF_ID, state: 'escalated', rejections: 2 });
    const escalations = (await h.messages()).filter((m) => m.message_type === 'escalation');
    expect(escalations).toEqual([
      expect.objectContaining({
        source_agent: 'frontend',
        payload: expect.objectContaining({ conflict_type: 'quality' }),
      }),
    ]);
  });

  it('escalates a decision that clashes with an active one sharing its tags, and overwrites nothing', async () => {
    const first = startOrgProject({ projectId: 'p-1' });
    await first.open();
    const second = startOrgProject({ projectId: 'p-2', stateJournal: first.stateJournal });
    const offline = {
      ...SHOP_PRD,
      features: [{ ...SHOP_PRD.features[0]!, constraints: [{ topic: 'storage', value: 'offline-first' }] }],
    };
    await second.open(offline);
    const escalations = await second.ws.escalations();
    expect(escalations).toEqual([
      expect.objectContaining({
        status: 'awaiting_user',
        payload: expect.objectContaining({ conflict_type: 'quality', agents_involved: ['database'] }),
        pending_decision: expect.objectContaining({ claim: { topic: 'storage', value: 'offline-first' } }),
      }),
    ]);
    const storage = await second.ws.knowledge.query({ type: 'decision', tag: 'storage' });
    expect(storage.map((d) => [d.claim?.value, d.status])).toEqual([['server-only', 'active']]);
  });
});
