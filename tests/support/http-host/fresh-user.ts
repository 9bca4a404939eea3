import { randomUUID } from 'node:crypto';

/**
 * A user name no other test uses (`ada-1f0c9e2b`): suites sharing one host (a cluster started once
 * per file) keep their runs, lists and clearances apart.
 *
 * @example
 * const ada = freshUser('ada');
 */
export const freshUser = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
