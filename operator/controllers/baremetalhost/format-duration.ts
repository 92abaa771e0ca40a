/** `90_000` ⇒ `1m30s`: Go's duration style, as the settings take them. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds || (!hours && !minutes) ? `${seconds}s` : ''}`;
}
