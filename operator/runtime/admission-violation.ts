/** One broken rule: the field it is about and BMO's message for it. */
export interface Violation {
  /** JSON path of the offending field, e.g. `spec.bmc.address`; sent as the cause's field. */
  field: string;
  message: string;
}

/**
 * The denial message, as Kubernetes' error aggregate prints BMO's errors: one message alone,
 * several as `[first, second]`, identical messages once.
 */
export function aggregateMessage(violations: readonly Violation[]): string {
  const messages = [...new Set(violations.map((violation) => violation.message))];
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`;
}
