import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import type { HandoffState } from '../../protocol/org/handoff-transitions.ts';
import { handoffMachine, type HandoffEvent, type HandoffInput, type HandoffStep } from './handoff.ts';

type HandoffSnapshot = SnapshotFrom<typeof handoffMachine>;

/** What `GET /org/projects/:id/handoffs` answers for one handoff. */
export interface HandoffView extends HandoffInput {
  state: HandoffState;
  rejections: number;
  history: HandoffStep[];
}

/**
 * The handoffs of a project, folded from their events through the `handoff` statechart itself
 * (pure `transition`, no actor): an event the machine does not take in its state changes nothing.
 *
 * @example
 * const book = new HandoffBook();
 * book.apply({ handoff_id, from: 'backend', to: 'frontend', deliverable_type: 'api_contract' }, { type: 'handoff.notify', at, message_id });
 */
export class HandoffBook {
  readonly #handoffs = new Map<string, HandoffSnapshot>();

  /** Applies `event` to the handoff `about` names (started `complete` on its first event). */
  apply(about: HandoffInput, event: HandoffEvent): HandoffState {
    let snapshot = this.#handoffs.get(about.handoff_id);
    if (!snapshot) [snapshot] = initialTransition(handoffMachine, about);
    [snapshot] = transition(handoffMachine, snapshot, event);
    this.#handoffs.set(about.handoff_id, snapshot);
    return snapshot.value as HandoffState;
  }

  has(handoffId: string): boolean {
    return this.#handoffs.has(handoffId);
  }

  /** Each handoff in the order it began. */
  views(): HandoffView[] {
    return [...this.#handoffs.values()].map((snapshot) => {
      const { handoff_id, from, to, deliverable_type, rejections, history } = snapshot.context;
      return { handoff_id, from, to, deliverable_type, state: snapshot.value as HandoffState, rejections, history };
    });
  }
}
