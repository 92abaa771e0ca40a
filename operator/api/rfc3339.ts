import { z } from 'zod';

/**
 * An RFC 3339 timestamp kept as the string the API server sent (metav1.Time). Only the
 * `format` is declared: the API server validates it, and zod's own datetime regex is not RE2-safe.
 */
export function rfc3339(): z.ZodString {
  return z.string().meta({ format: 'date-time' });
}
