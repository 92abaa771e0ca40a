/**
 * `metav1.MicroTime` text: RFC 3339 with exactly six fractional digits. Lease and Event
 * times must use it; a plain `Date` serialises with three and the API server answers 400.
 * (Equivalent to client-node's `V1MicroTime.toISOString()`, without constructing Dates
 * that the ObjectSerializer would touch.)
 */
export function formatMicroTime(time: Date | number): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
