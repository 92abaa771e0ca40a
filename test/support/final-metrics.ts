import { appendFileSync, readFileSync } from 'node:fs';

export const METRICS_PAGE_SUFFIX = '.metrics.prom';

/** Where the metrics page of a process is kept: beside its log, read by the secret scan. */
export const metricsPagePath = (logPath: string): string => logPath.replace(/\.log$/, '') + METRICS_PAGE_SUFFIX;

/** A JSON log line, or a console one (`time<TAB>LEVEL<TAB>message<TAB>{fields}`, BMO's --dev) as one object. */
function logEntry(line: string): { message?: string; server?: string; address?: string } | undefined {
  try {
    if (line.startsWith('{')) return JSON.parse(line) as { message?: string };
    const [, , message, fields] = line.split('\t');
    return fields === undefined ? undefined : { message, ...(JSON.parse(fields) as object) };
  } catch {
    return undefined; // Not one of the manager's lines.
  }
}

/** The metrics address a manager logged last (message `serving`, server `metrics`), if any. */
export function loggedMetricsAddress(logText: string): string | undefined {
  let address: string | undefined;
  for (const line of logText.split('\n')) {
    if (!line.includes('"server":"metrics"')) continue;
    const entry = logEntry(line);
    if (entry?.message === 'serving' && entry.server === 'metrics' && entry.address) address = entry.address;
  }
  return address;
}

/**
 * Keeps a running manager's metrics page beside its log before the process stops, so the
 * secret scan at the end of a run also reads every metric label (the processes are gone by
 * then). Best effort: a process that never served metrics, or no longer answers, has none.
 */
export async function keepMetricsPage(logPath: string): Promise<void> {
  let address: string | undefined;
  try {
    address = loggedMetricsAddress(readFileSync(logPath, 'utf8'));
  } catch {
    return;
  }
  if (!address) return;
  try {
    const response = await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return;
    appendFileSync(metricsPagePath(logPath), `# ${new Date().toISOString()} ${address}\n${await response.text()}`);
  } catch {
    // Gone or stuck: the log says why; nothing to keep.
  }
}
