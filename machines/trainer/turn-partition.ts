/**
 * Where a turn's envelopes are journaled: one partition per UTC hour, shared by every session
 * (`turns-2026112408`). Turns under way at once share its writes (the journal commits what is
 * pending together: one `write` and one `fdatasync` for the envelopes of many sessions), where a
 * partition per session cost each envelope its own sync. A partition is read only when first
 * touched after a restart, and only this hour's is: start-up and a restart's first turn cost
 * no more with a long history. A session's envelopes are found by their `session_id`; its
 * events (its truth) stay in the journal `sessions`, one partition per session.
 *
 * @example
 * turnPartitionAt(Date.parse('2026-11-24T08:41:07Z')); // 'turns-2026112408'
 */
export function turnPartitionAt(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-11-24T08:41:07.000Z
  return `turns-${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}`;
}
