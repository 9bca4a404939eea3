import { compilePath, type PathReader } from '../../protocol/runtime/envelope-path.ts';
import { priorityMapper, type PriorityScale } from '../../protocol/runtime/priority-scale.ts';

/** Where a request's input keeps its priority, and how it maps onto the runtime's 0 (critical) .. 4 (backlog). */
export interface MailboxPriority {
  /** A dotted path into the request's input (`envelope.priority`). */
  readonly path: string;
  readonly scale: PriorityScale;
}

/** The compiled reader of each declaration (a restored agent's is compiled again once). */
const readers = new WeakMap<MailboxPriority, (input: unknown) => number>();

function readerOf(declaration: MailboxPriority): (input: unknown) => number {
  let reader = readers.get(declaration);
  if (!reader) {
    const read: PathReader = compilePath(declaration.path);
    const map = priorityMapper(declaration.scale);
    // An input without a readable priority waits behind every one that has one.
    reader = (input) => map(read(input)) ?? Number.POSITIVE_INFINITY;
    readers.set(declaration, reader);
  }
  return reader;
}

/**
 * `queue` with `request` added: after every request at least as urgent, before the first less
 * urgent one (arrival order within a priority). Without a declaration, at the end (FIFO).
 *
 * @example
 * insertByPriority(queue, { requestId, input }, { path: 'envelope.priority', scale: { labels: { critical: 0, low: 3 } } });
 */
export function insertByPriority<R extends { input: unknown; priority?: number }>(
  queue: readonly R[],
  request: R,
  declaration: MailboxPriority | undefined,
): R[] {
  if (!declaration) return [...queue, request];
  const read = readerOf(declaration);
  const priority = read(request.input);
  const ranked = { ...request, priority };
  const at = queue.findIndex((queued) => (queued.priority ?? read(queued.input)) > priority);
  return at === -1 ? [...queue, ranked] : [...queue.slice(0, at), ranked, ...queue.slice(at)];
}
