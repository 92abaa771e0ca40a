import { describe, expect, it } from '@jest/globals';
import { setV1beta1Condition, setV1beta1Summary } from './v1beta1-conditions.ts';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');

describe('Cluster API v1beta1 conditions', () => {
  it('keeps the transition time while nothing changes, sorts Ready first then by type', () => {
    let list = setV1beta1Condition(undefined, { type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', severity: 'Info' }, t0);
    list = setV1beta1Condition(list, { type: 'AssociateBMH', status: 'True' }, t0);
    list = setV1beta1Condition(list, { type: 'Ready', status: 'True' }, t0);
    expect(list.map((c) => c.type)).toEqual(['Ready', 'AssociateBMH', 'Metal3DataReady']);
    const again = setV1beta1Condition(list, { type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', severity: 'Info' }, t1);
    expect(again.find((c) => c.type === 'Metal3DataReady')).toEqual({
      type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', severity: 'Info', lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    const changed = setV1beta1Condition(again, { type: 'Metal3DataReady', status: 'True' }, t1);
    expect(changed.find((c) => c.type === 'Metal3DataReady')).toEqual({ type: 'Metal3DataReady', status: 'True', lastTransitionTime: '2026-01-01T00:05:00Z' });
  });

  it('summarises as SetSummary: the most severe False wins, then the first in the given order; all True is True; none leaves Ready alone', () => {
    const types = ['AssociateBMH', 'Metal3DataReady', 'KubernetesNodeReady'];
    let list = setV1beta1Condition(undefined, { type: 'KubernetesNodeReady', status: 'False', reason: 'AssociateM3MetaDataFailed', severity: 'Warning', message: 'm' }, t0);
    list = setV1beta1Condition(list, { type: 'Metal3DataReady', status: 'False', reason: 'WaitingForMetal3Data', severity: 'Info' }, t0);
    list = setV1beta1Condition(list, { type: 'AssociateBMH', status: 'False', reason: 'WaitingForBootstrapReady', severity: 'Info' }, t0);
    expect(setV1beta1Summary(list, types, t0)?.[0]).toEqual({
      type: 'Ready', status: 'False', reason: 'AssociateM3MetaDataFailed', severity: 'Warning', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z',
    });
    const infoOnly = list.filter((c) => c.type !== 'KubernetesNodeReady');
    expect(setV1beta1Summary(infoOnly, types, t0)?.[0]).toMatchObject({ type: 'Ready', reason: 'WaitingForBootstrapReady', severity: 'Info' });
    const allTrue = setV1beta1Condition(setV1beta1Condition(undefined, { type: 'AssociateBMH', status: 'True' }, t0), { type: 'Metal3DataReady', status: 'True' }, t0);
    expect(setV1beta1Summary(allTrue, types, t1)?.[0]).toEqual({ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:05:00Z' });
    expect(setV1beta1Summary([], types, t1)).toEqual([]);
  });
});
