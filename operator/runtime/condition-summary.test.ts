import { describe, expect, it } from '@jest/globals';
import type { Condition } from './conditions.ts';
import { summaryCondition } from './condition-summary.ts';

const at = '2026-12-05T10:00:00Z';
const condition = (type: string, status: Condition['status'], reason: string, message = ''): Condition => ({ type, status, reason, message, lastTransitionTime: at });
const TYPES = ['Associated', 'Synchronized', 'Provisioned'];

describe('summaryCondition (Cluster API\'s default summary)', () => {
  it('is True when all are, with InfoReported and only the True ones that say something', () => {
    expect(summaryCondition([condition('Associated', 'True', 'A'), condition('Synchronized', 'True', 'S', 'in sync'), condition('Provisioned', 'True', 'P')], { type: 'Ready', of: TYPES }))
      .toEqual({ type: 'Ready', status: 'True', reason: 'InfoReported', message: '* Synchronized: in sync' });
  });

  it('counts missing conditions as Unknown, and any False as an issue', () => {
    expect(summaryCondition([condition('Associated', 'True', 'A')], { type: 'Ready', of: TYPES })).toEqual({
      type: 'Ready', status: 'Unknown', reason: 'UnknownReported', message: '* Synchronized: Condition not yet reported\n* Provisioned: Condition not yet reported',
    });
    expect(summaryCondition([condition('Provisioned', 'False', 'Failed'), condition('Associated', 'False', 'NoBareMetalHost', 'none\nat all')], { type: 'Ready', of: TYPES })).toEqual({
      type: 'Ready', status: 'False', reason: 'IssuesReported',
      message: '* Associated:\n  none\n  at all\n* Synchronized: Condition not yet reported\n* Provisioned: Failed',
    });
  });
});
