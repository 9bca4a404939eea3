import { randomUUID } from 'node:crypto';
import type { ToolContext } from './tool-context.ts';

/** The context's clock, or the wall clock. */
export const nowOf = (ctx: ToolContext): Date => (ctx.now ?? (() => new Date()))();

/** The context's id source, or random UUIDs. */
export const newIdOf = (ctx: ToolContext): string => (ctx.newId ?? randomUUID)();
