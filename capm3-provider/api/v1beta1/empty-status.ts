import { z } from 'zod';

/** The status of a kind that has none: whatever is there is passed through untouched. */
export const emptySchema = z.looseObject({});
