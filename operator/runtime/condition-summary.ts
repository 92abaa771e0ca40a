import type { Condition, ConditionInput } from './conditions.ts';

/** Cluster API's reasons for a summary: any False, else any Unknown (or missing), else all True. */
export const SUMMARY_REASONS = { issues: 'IssuesReported', unknown: 'UnknownReported', info: 'InfoReported' } as const;

/**
 * Cluster API's conditions.SetSummaryCondition with its default merge strategy, for
 * positive-polarity types: a missing condition counts as Unknown ("Condition not yet
 * reported"); the message lists each False or Unknown one as `* Type: message` in the order
 * given (True ones only when the summary is True and they have a message).
 */
export function summaryCondition(conditions: readonly Condition[] | undefined, options: { type: string; of: readonly string[] }): ConditionInput {
  const inScope = options.of.map((type) => conditions?.find((condition) => condition.type === type)
    ?? { type, status: 'Unknown' as const, reason: 'NotYetReported', message: 'Condition not yet reported' });
  const status = inScope.some((c) => c.status === 'False') ? 'False' : inScope.some((c) => c.status === 'Unknown') ? 'Unknown' : 'True';
  const reason = status === 'False' ? SUMMARY_REASONS.issues : status === 'Unknown' ? SUMMARY_REASONS.unknown : SUMMARY_REASONS.info;
  const message = inScope
    .filter((c) => c.status !== 'True' || (status === 'True' && c.message !== ''))
    .map((c) => `* ${c.type}:${c.message ? indentIfMultiline(c.message) : ` ${c.reason}`}`)
    .join('\n');
  return { type: options.type, status, reason, message };
}

/** Multi-line messages go on their own lines, indented (Cluster API also adds bullets; ours are one line). */
function indentIfMultiline(message: string): string {
  if (!message.includes('\n')) return ` ${message}`;
  return `\n${message.split('\n').map((line) => (line ? `  ${line}` : line)).join('\n')}`;
}
