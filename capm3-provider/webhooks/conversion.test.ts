import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../operator/runtime/index.ts';
import { conversionHandler } from './conversion.ts';

const convert = conversionHandler({ logger: silentLogger() });
const remediationTemplate = (name: string, timeout: string) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'Metal3RemediationTemplate', metadata: { name, namespace: 'ns' },
  spec: { template: { spec: { strategy: { type: 'Reboot', timeout } } } },
});

describe('the conversion webhook', () => {
  it('converts every object of a review, in order', () => {
    const response = convert({ uid: 'u1', desiredAPIVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', objects: [remediationTemplate('a', '60s'), remediationTemplate('b', '2m')] }).response;
    expect(response.result).toEqual({ status: 'Success' });
    expect(response.uid).toBe('u1');
    expect(response.convertedObjects.map((object) => (object as { spec: { template: { spec: { strategy: { timeoutSeconds: number } } } } }).spec.template.spec.strategy.timeoutSeconds))
      .toEqual([60, 120]);
  });

  it('fails the whole review on one object it cannot convert, saying which and why', () => {
    const response = convert({ uid: 'u2', desiredAPIVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', objects: [remediationTemplate('a', '60s'), remediationTemplate('b', 'later')] }).response;
    expect(response).toEqual({ uid: 'u2', convertedObjects: [], result: {
      status: 'Failure', message: 'Metal3RemediationTemplate ns/b: spec.template.spec.strategy.timeout: "later" is not a duration (write it as Go does, e.g. 600s or 10m)',
    } });
  });
});
