/** Rejects after `ms` (naming `what`) unless `work` settles first; the work itself is not cancelled. */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  // The work goes on after a timeout; its late failure must not become an unhandled rejection.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${Math.round(ms / 1000)} s`)), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
