/**
 * The name of the IPAddress holding `address` in a pool: `<namePrefix>-<address with . and : as ->`,
 * trailing dashes trimmed (upstream's formatAddressName). The name is the allocation lock: the
 * API server refuses a second object with it.
 */
export function ipAddressName(namePrefix: string, address: string): string {
  return `${namePrefix}-${address.replaceAll(':', '-').replaceAll('.', '-')}`.replace(/-+$/, '');
}
