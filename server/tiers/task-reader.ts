import { emptyTree } from '../../machines/runtime/delegation-tree-state.ts';
import type { DelegationNodeView } from '../../machines/runtime/delegation-tree.ts';
import { applyDelegationRecord } from '../../machines/runtime/delegation-tree-steps.ts';
import { openSharedState } from '../../actors/runtime/shared-state/open-shared-state.ts';
import type { Journal } from '../../actors/runtime/journal.ts';
import type { DelegationRecord } from '../../protocol/runtime/delegation-record.ts';
import type { RoutedRecord } from '../../protocol/runtime/routing.ts';
import { BEADS_SCHEMA, BEADS_TABLE } from '../../protocol/tiers/beads.ts';
import type { TiersEnvelope } from '../../protocol/tiers/envelope.ts';
import type { LiveTask } from './live-task.ts';
import type { TaskRecords } from './task-records.ts';
import { delegationStatusOf, treeView } from './task-tree-view.ts';
import type { BeadsEntry, TaskEvent, TaskView } from './tiers-service-api.ts';

/**
 * Reads a task for its user: its record, its envelopes (journal order), its delegation tree (the
 * live one, or replayed from its journal without re-arming anything) and its Beads entries.
 */
export class TaskReader {
  constructor(
    private readonly journals: {
      journal: Journal<RoutedRecord>;
      trees: Journal<DelegationRecord>;
      beads: Journal<unknown>;
    },
    private readonly records: TaskRecords,
    private readonly liveOf: (taskId: string) => LiveTask | undefined,
  ) {}

  private async nodes(taskId: string): Promise<DelegationNodeView[]> {
    const live = this.liveOf(taskId);
    if (live) return live.tree.nodes();
    const tree = emptyTree();
    for (const entry of await this.journals.trees.read(taskId)) applyDelegationRecord(tree, entry.data);
    return [...tree.nodes.values()].map((node) => ({ ...node, children: [...node.children] }));
  }

  private async envelopes(taskId: string): Promise<TiersEnvelope[]> {
    return (await this.journals.journal.read(taskId)).map((entry) => entry.data.envelope as TiersEnvelope);
  }

  async view(user: string, taskId: string): Promise<TaskView | undefined> {
    const record = await this.records.own(user, taskId);
    if (!record) return undefined;
    const [nodes, envelopes] = await Promise.all([this.nodes(taskId), this.envelopes(taskId)]);
    const delivered = new Set(envelopes.map((e) => e.id));
    return {
      task_id: taskId,
      status: record.status,
      outcome: record.outcome,
      tree: treeView(nodes, delivered),
      waiting_for_user: record.waiting_for_user,
      created_at: record.created_at,
    };
  }

  async messages(user: string, taskId: string): Promise<TiersEnvelope[] | undefined> {
    return (await this.records.own(user, taskId)) ? this.envelopes(taskId) : undefined;
  }

  async beads(user: string, taskId: string, prefix = ''): Promise<BeadsEntry[] | undefined> {
    if (!(await this.records.own(user, taskId))) return undefined;
    const state = openSharedState({
      journal: this.journals.beads,
      schema: BEADS_SCHEMA,
      scopes: { task: taskId, user },
    });
    try {
      const namespaces = Object.keys(BEADS_TABLE).filter(
        (ns) => `${ns}/`.startsWith(prefix) || prefix.startsWith(`${ns}/`),
      );
      const lists = await Promise.all(
        namespaces.map((ns) => state.list(prefix.startsWith(`${ns}/`) ? prefix : `${ns}/`)),
      );
      return lists.flat().map((e) => ({ key: e.key, value: e.value, version: e.version, written_by: e.writtenBy }));
    } finally {
      await state.close();
    }
  }

  /** The task's past events for a stream: its envelopes, each delegation's status, and `settled` if it is. */
  async replay(user: string, taskId: string): Promise<{ events: TaskEvent[]; settled: boolean } | undefined> {
    const record = await this.records.own(user, taskId);
    if (!record) return undefined;
    const [nodes, envelopes] = await Promise.all([this.nodes(taskId), this.envelopes(taskId)]);
    const delivered = new Set(envelopes.map((e) => e.id));
    const events: TaskEvent[] = envelopes.map((data) => ({ type: 'message', data }));
    for (const node of nodes)
      events.push({
        type: 'status',
        data: { message_id: node.id, status: delegationStatusOf(node, delivered.has(node.id)) },
      });
    const settled = record.status !== 'working';
    if (settled) events.push({ type: 'settled', data: { task_id: taskId, status: record.status } });
    return { events, settled };
  }
}
