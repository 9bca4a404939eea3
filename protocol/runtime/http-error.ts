import { z } from 'zod';

/** One issue of a validation error: where (a dotted path) and what is wrong. */
export const ErrorIssueSchema = z.strictObject({
  path: z.string(),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

/** The one error shape of every HTTP error response (DESIGN.md, HTTP conventions). */
export const HttpErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    issues: z.array(ErrorIssueSchema).optional(),
  }),
});
export type HttpErrorBody = z.infer<typeof HttpErrorBodySchema>;
