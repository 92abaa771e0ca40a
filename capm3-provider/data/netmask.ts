/** A prefix length as the netmask network_data.json carries: dotted for IPv4, Go's compressed IPv6 form otherwise. */
export function netmask(prefix: number | undefined, family: 'ipv4' | 'ipv6'): string {
  if (prefix === undefined) return '';
  const bits = family === 'ipv4' ? 32 : 128;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) throw new RangeError(`prefix ${prefix} is not between 0 and ${bits}`);
  const ones = (count: number, width: number) => (count >= width ? 2 ** width - 1 : (2 ** width - 1) - (2 ** (width - count) - 1));
  if (family === 'ipv4') {
    return [0, 1, 2, 3].map((octet) => ones(Math.max(0, Math.min(8, prefix - octet * 8)), 8)).join('.');
  }
  const groups = [0, 1, 2, 3, 4, 5, 6, 7].map((group) => ones(Math.max(0, Math.min(16, prefix - group * 16)), 16).toString(16));
  return compressIpv6(groups);
}

/** RFC 5952: the longest run (of two or more) of zero groups becomes `::`. */
function compressIpv6(groups: string[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (start + length < groups.length && groups[start + length] === '0') length++;
    if (length > bestLength && length >= 2) {
      bestStart = start;
      bestLength = length;
    }
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}
