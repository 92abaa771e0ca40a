/** Go's time.Duration text, as metav1.Duration carries it in v1beta1 (`10m0s`, `600s`, `1.5h`). */

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  ns: 1e-9, us: 1e-6, '\u00b5s': 1e-6, '\u03bcs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600,
};
// Go also takes micro (U+00B5) and Greek mu (U+03BC) for microseconds; escaped to keep the bundle ASCII.
const TERM = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;

/** Seconds in a Go duration string, as time.ParseDuration reads it; undefined when it is not one. */
export function parseGoDurationSeconds(text: string): number | undefined {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  if (body === '0') return 0;
  if (body === '') return undefined;
  let seconds = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < body.length) {
    const start = TERM.lastIndex;
    const match = TERM.exec(body);
    if (match === null || match.index !== start) return undefined;
    seconds += Number(match[1]) * (UNIT_SECONDS[match[2] as string] as number);
  }
  return sign * seconds;
}

/** Whole seconds as time.Duration.String() writes them: `45s`, `10m0s`, `1h30m0s`. */
export function formatGoDuration(totalSeconds: number): string {
  if (totalSeconds === 0) return '0s';
  const sign = totalSeconds < 0 ? '-' : '';
  let rest = Math.abs(totalSeconds);
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}
