import { describe, expect, it } from '@jest/globals';
import { CONVERSION_DATA_ANNOTATION } from './conversion-data.ts';
import { CONVERTIBLE_KINDS, convertObject } from './convert-object.ts';
import { ConversionError } from './define-conversion.ts';

const V1 = 'infrastructure.cluster.x-k8s.io/v1beta1';
const V2 = 'infrastructure.cluster.x-k8s.io/v1beta2';
const metadata = { name: 'x', namespace: 'ns', uid: 'u-1', resourceVersion: '7', labels: { a: 'b' }, annotations: { keep: 'me' } };
const object = (apiVersion: string, kind: string, spec: unknown, status?: unknown) =>
  ({ apiVersion, kind, metadata, spec, ...(status === undefined ? {} : { status }) });
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const up = (value: unknown) => json(convertObject(value, V2));
const down = (value: unknown) => json(convertObject(value, V1));
const condition = { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-05T10:00:00Z', reason: 'Ready', message: '' };
const legacyCondition = { type: 'Ready', status: 'False', severity: 'Warning', lastTransitionTime: '2026-12-05T10:00:00Z', reason: 'Waiting' };

describe('conversion between v1beta1 and v1beta2', () => {
  it('covers every kind CAPM3 serves in both versions', () => {
    expect([...CONVERTIBLE_KINDS].sort()).toEqual(['Metal3Cluster', 'Metal3ClusterTemplate', 'Metal3Data', 'Metal3DataClaim', 'Metal3DataTemplate',
      'Metal3Machine', 'Metal3MachineTemplate', 'Metal3Remediation', 'Metal3RemediationTemplate']);
  });

  it('moves a Metal3Cluster\'s failure domains, cloud provider and v1beta1 contract status to their v1beta2 places', () => {
    const converted = up(object(V1, 'Metal3Cluster', {
      controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, noCloudProvider: true,
      failureDomains: { rack2: { controlPlane: false, attributes: { row: 'b' } }, rack1: { controlPlane: true } },
    }, { ready: true, failureReason: 'CreateError', failureMessage: 'boom', conditions: [legacyCondition], v1beta2: { conditions: [condition] } }));
    expect(converted).toEqual({
      apiVersion: V2, kind: 'Metal3Cluster', metadata,
      spec: {
        controlPlaneEndpoint: { host: '127.0.0.1', port: 6443 }, cloudProviderEnabled: false,
        failureDomains: [{ name: 'rack1', controlPlane: true }, { name: 'rack2', attributes: { row: 'b' } }],
      },
      status: {
        initialization: { provisioned: true }, conditions: [condition],
        deprecated: { v1beta1: { conditions: [legacyCondition], failureReason: 'CreateError', failureMessage: 'boom' } },
      },
    });
  });

  it('gives a v1beta2 Metal3Cluster back unchanged after a trip through v1beta1, a false provisioned included', () => {
    const hub = object(V2, 'Metal3Cluster', {
      controlPlaneEndpoint: { host: 'cp.example', port: 6443 }, cloudProviderEnabled: true,
      failureDomains: [{ name: 'a', controlPlane: true, attributes: { zone: '1' } }, { name: 'b' }],
    }, { initialization: { provisioned: false }, conditions: [condition], lastUpdated: '2026-12-05T10:00:00Z' });
    const old = down(hub);
    expect(old.spec).toEqual({
      controlPlaneEndpoint: { host: 'cp.example', port: 6443 }, cloudProviderEnabled: true, noCloudProvider: false,
      failureDomains: { a: { controlPlane: true, attributes: { zone: '1' } }, b: { controlPlane: false } },
    });
    expect(old.status).toEqual({ ready: false, v1beta2: { conditions: [condition] }, lastUpdated: '2026-12-05T10:00:00Z' });
    expect((old.metadata as typeof metadata).annotations).toEqual({ keep: 'me', [CONVERSION_DATA_ANNOTATION]: expect.any(String) });
    expect(up(old)).toEqual(json(hub));
  });

  it('renames a machine image\'s format, drops Go\'s empty values and keeps a template\'s metadata through v1beta1', () => {
    const fromGo = up(object(V1, 'Metal3MachineTemplate', {
      nodeReuse: false,
      template: { spec: { image: { url: '' }, hostSelector: {}, customDeploy: { method: 'install_coreos' }, providerID: '',
        dataTemplate: { kind: 'Metal3DataTemplate', name: 'workers', namespace: 'ns', uid: 'u-2' } } },
    }));
    expect(fromGo.spec).toEqual({
      nodeReuse: false, template: { spec: { customDeploy: { method: 'install_coreos' }, dataTemplate: { name: 'workers', namespace: 'ns' } } },
    });
    const hub = object(V2, 'Metal3MachineTemplate', {
      nodeReuse: true,
      template: { metadata: { labels: { tier: 'gold' } }, spec: { image: { url: 'http://127.0.0.1/os.qcow2', checksum: 'abc', checksumType: 'sha256', diskFormat: 'qcow2' } } },
    });
    const old = down(hub);
    expect(old.spec).toEqual({
      nodeReuse: true, template: { spec: { image: { url: 'http://127.0.0.1/os.qcow2', checksum: 'abc', checksumType: 'sha256', format: 'qcow2' } } },
    });
    const back = up(old);
    expect(back).toEqual(json(hub));
    expect((back.metadata as typeof metadata).annotations).toEqual({ keep: 'me' });
  });

  it('moves a Metal3Machine\'s ready and rendered data, keeping only the name and namespace of references', () => {
    const converted = up(object(V1, 'Metal3Machine', { image: { url: 'http://127.0.0.1/os.raw', checksum: 'c', format: 'raw' } }, {
      ready: true, phase: 'ignored', addresses: [{ type: 'InternalIP', address: '127.0.0.5' }],
      renderedData: { kind: 'Metal3Data', name: 'd-0', namespace: 'ns' }, userData: { name: 'ud', namespace: 'ns' },
    }));
    expect(converted.spec).toEqual({ image: { url: 'http://127.0.0.1/os.raw', checksum: 'c', diskFormat: 'raw' } });
    expect(converted.status).toEqual({
      initialization: { provisioned: true }, addresses: [{ type: 'InternalIP', address: '127.0.0.5' }],
      renderedData: { name: 'd-0', namespace: 'ns' }, userData: { name: 'ud', namespace: 'ns' },
    });
    expect(down(converted).status).toEqual({
      ready: true, addresses: [{ type: 'InternalIP', address: '127.0.0.5' }], renderedData: { name: 'd-0', namespace: 'ns' },
      userData: { name: 'ud', namespace: 'ns' },
    });
  });

  it('renames a data template\'s pool-backed meta data and turns bond parameters and indexes into lists', () => {
    const pool = [{ key: 'ip', name: 'pool-a' }];
    const converted = up(object(V1, 'Metal3DataTemplate', {
      templateReference: 'old', clusterName: 'c1',
      metaData: { strings: [{ key: 's', value: 'v' }], ipAddressesFromIPPool: pool, prefixesFromIPPool: pool, gatewaysFromIPPool: pool, dnsServersFromIPPool: pool },
      networkData: { links: { bonds: [{ id: 'bond0', bondMode: '802.3ad', bondLinks: ['eth0'], parameters: { miimon: 100, lacp_rate: 'fast' } }] } },
    }, { indexes: { 'claim-b': 1, 'claim-a': 0, 'claim-c': 2 } }));
    expect(converted.spec).toEqual({
      clusterName: 'c1',
      metaData: { strings: [{ key: 's', value: 'v' }], ipAddressesFromPool: pool, prefixesFromPool: pool, gatewaysFromPool: pool, dnsServersFromPool: pool },
      networkData: { links: { bonds: [{ id: 'bond0', bondMode: '802.3ad', bondLinks: ['eth0'],
        parameters: [{ name: 'lacp_rate', value: 'fast' }, { name: 'miimon', value: 100 }] }] } },
    });
    expect(converted.status).toEqual({ indexes: [{ name: 'claim-a', index: 0 }, { name: 'claim-b', index: 1 }, { name: 'claim-c', index: 2 }] });
    const old = down(converted);
    expect(old.status).toEqual({ indexes: { 'claim-a': 0, 'claim-b': 1, 'claim-c': 2 } });
    expect((old.spec as { networkData: unknown }).networkData).toEqual({
      links: { bonds: [{ id: 'bond0', bondMode: '802.3ad', bondLinks: ['eth0'], parameters: { lacp_rate: 'fast', miimon: 100 } }] },
    });
    expect((old.metadata as typeof metadata).annotations).toEqual({ keep: 'me' });
  });

  it('turns Metal3Data and Metal3DataClaim object references into names, and empty ones into none', () => {
    const data = up(object(V1, 'Metal3Data', {
      index: 3, templateReference: 't', claim: { kind: 'Metal3DataClaim', name: 'c', namespace: 'ns' }, template: {},
    }, { ready: true }));
    expect(data.spec).toEqual({ index: 3, claim: { name: 'c', namespace: 'ns' } });
    expect(down(data).spec).toEqual({ index: 3, claim: { name: 'c', namespace: 'ns' }, template: {} });
    const claim = up(object(V1, 'Metal3DataClaim', { template: { name: 'workers', apiVersion: V1 } }, { renderedData: { name: 'workers-0', uid: 'u' } }));
    expect(claim.spec).toEqual({ template: { name: 'workers' } });
    expect(claim.status).toEqual({ renderedData: { name: 'workers-0' } });
  });

  it('turns a remediation timeout into seconds and back into a Go duration', () => {
    const template = up(object(V1, 'Metal3RemediationTemplate', { template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeout: '5m' } } } }));
    expect(template.spec).toEqual({ template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeoutSeconds: 300 } } } });
    expect(down(template).spec).toEqual({ template: { spec: { strategy: { type: 'Reboot', retryLimit: 2, timeout: '5m0s' } } } });
    const remediation = down(object(V2, 'Metal3Remediation', { strategy: { type: 'Reboot' } }, { phase: 'Waiting', retryCount: 1 }));
    expect(remediation.spec).toEqual({ strategy: { type: 'Reboot', retryLimit: 1, timeout: '10m0s' } });
    expect(remediation.status).toEqual({ phase: 'Waiting', retryCount: 1 });
  });

  it('refuses what cannot be converted, naming the object and the field', () => {
    const bad = object(V1, 'Metal3RemediationTemplate', { template: { spec: { strategy: { timeout: 'soon' } } } });
    expect(() => convertObject(bad, V2)).toThrow(new ConversionError(
      'Metal3RemediationTemplate ns/x: spec.template.spec.strategy.timeout: "soon" is not a duration (write it as Go does, e.g. 600s or 10m)'));
    expect(() => convertObject(object(V1, 'Metal3Machine', { image: { url: 5 } }), V2)).toThrow(/^Metal3Machine ns\/x: spec\.image\.url: /);
    expect(() => convertObject(object(V1, 'Metal3Remediation', {}, { phase: 'Dancing' }), V2)).toThrow(/status\.phase: "Dancing" is not one of/);
    expect(() => convertObject(object(V1, 'Cluster', {}), V2)).toThrow('no conversion for kind Cluster');
    expect(() => convertObject(object(V1, 'Metal3Machine', {}), 'infrastructure.cluster.x-k8s.io/v1alpha5')).toThrow('cannot convert to');
    expect(() => convertObject('text', V2)).toThrow('not a Kubernetes object');
  });

  it('returns an object already in the version asked for as it is', () => {
    const hub = object(V2, 'Metal3Machine', { providerID: 'p' });
    expect(convertObject(hub, V2)).toBe(hub);
  });
});
