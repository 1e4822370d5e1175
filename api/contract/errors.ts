import { z } from 'zod';

/** Every error answer (docs/errors.md, "The error shape"). */
export const errorResponseSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  /** Validation errors per field path ("products.0.price"). */
  errors: z.record(z.string(), z.string()).optional(),
  /** The request's id, also its X-Request-Id header and on its log lines (docs/errors.md, "The error shape"). */
  requestId: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
