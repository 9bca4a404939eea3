import { z } from 'zod';

/** The verdicts a run can end with (the child reports all but the ones only the parent sees). */
export const SandboxVerdictSchema = z.enum(['ok', 'timeout', 'memory', 'crashed', 'compile_error', 'forbidden']);
export type SandboxVerdict = z.infer<typeof SandboxVerdictSchema>;

/**
 * One line the sandbox child writes on fd 1 (sandbox-child.mjs): `ready` once it is set up (the
 * time limit starts), `loaded` once the solution's function is found, a `call` per finished call (`json` is the result's JSON text, absent for
 * `undefined`; `ms` the mean over repeats), and `end` with the run's verdict. The parent parses
 * every line with this schema: what a child says is data, and a line that fails ends the run as
 * `crashed`.
 */
export const ChildLineSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('ready') }),
  z.strictObject({ t: z.literal('loaded') }),
  z.strictObject({
    t: z.literal('call'),
    i: z.int().nonnegative(),
    ms: z.number().nonnegative(),
    ok: z.boolean(),
    json: z.string().optional(),
    error: z.string().optional(),
  }),
  z.strictObject({ t: z.literal('end'), verdict: SandboxVerdictSchema, detail: z.string().optional() }),
]);
export type ChildLine = z.infer<typeof ChildLineSchema>;
export type ChildCallLine = Extract<ChildLine, { t: 'call' }>;
export type ChildEndLine = Extract<ChildLine, { t: 'end' }>;
