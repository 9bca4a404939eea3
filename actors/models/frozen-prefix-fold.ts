/** One array folded so far: its frozen items from the start, and the state after each. */
interface FoldedRun<Item, State> {
  initial: State;
  items: Item[];
  states: State[];
}

/**
 * A left fold over arrays that grow from call to call with the same frozen items in front (a
 * session's conversation, sent again with each model call): a call folds only the items past the
 * longest prefix it shares with the last array that began with the same first item, so its cost
 * is what its new items cost plus one identity comparison per shared item, not one `step` (or one
 * `WeakMap` lookup) per item. Only items that `stable` says are frozen are remembered (a frozen
 * item reads the same next time); the first one that is not ends what is remembered of that call.
 * A run is keyed weakly by its first item, so it goes when that item does.
 *
 * @example
 * const fold = new FrozenPrefixFold((count: number, message: object) => count + 1, 0, Object.isFrozen);
 * fold.fold(messages); // steps through every message once
 * fold.fold([...messages, next]); // steps through `next` only
 */
export class FrozenPrefixFold<Item extends object, State> {
  readonly #runs = new WeakMap<Item, FoldedRun<Item, State>>();

  constructor(
    private readonly step: (state: State, item: Item) => State,
    private readonly initial: State,
    private readonly stable: (item: Item) => boolean,
  ) {}

  /** The state after every item of `items`, from `initial` (the constructor's by default; a run remembered from another starts over). */
  fold(items: readonly Item[], initial: State = this.initial): State {
    const first = items[0];
    if (first === undefined) return initial;
    let run: FoldedRun<Item, State> | undefined;
    if (this.stable(first)) {
      run = this.#runs.get(first);
      if (run === undefined || run.initial !== initial)
        this.#runs.set(first, (run = { initial, items: [], states: [] }));
    }
    let shared = 0;
    if (run !== undefined) {
      const { items: known } = run;
      const most = Math.min(known.length, items.length);
      while (shared < most && known[shared] === items[shared]) shared++;
      // What followed the shared prefix last time is not this array's: it is folded anew.
      known.length = shared;
      run.states.length = shared;
    }
    let state = shared === 0 ? initial : run!.states[shared - 1]!;
    for (let i = shared; i < items.length; i++) {
      const item = items[i]!;
      state = this.step(state, item);
      if (run === undefined) continue;
      if (this.stable(item)) {
        run.items.push(item);
        run.states.push(state);
      } else run = undefined;
    }
    return state;
  }
}
