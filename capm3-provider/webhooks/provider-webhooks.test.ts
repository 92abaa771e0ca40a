import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../operator/runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody } from '../../operator/runtime/index.ts';
import { mutatePath, providerWebhookHandlers, validatePath } from './index.ts';

const handlers = providerWebhookHandlers({ logger: silentLogger() });
const IMAGE = { url: 'http://127.0.0.1/os.raw', checksum: 'http://127.0.0.1/os.raw.sha256sum', checksumType: 'sha256', diskFormat: 'raw' };

function review(path: string, request: Partial<AdmissionRequest> & { object: unknown }): AdmissionResponseBody['response'] {
  const handler = handlers[path];
  if (handler === undefined) throw new Error(`no handler at ${path}`);
  const name = (request.object as { metadata?: { name?: string } } | null)?.metadata?.name;
  return handler({ uid: 'u1', operation: 'CREATE', namespace: 'ns', ...(name ? { name } : {}), ...request }).response;
}
const object = (kind: string, spec: unknown, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind, metadata: { name: 'x', namespace: 'ns', ...metadata }, spec,
});
const patchOf = (response: AdmissionResponseBody['response']) => JSON.parse(Buffer.from(response.patch ?? 'W10=', 'base64').toString()) as unknown;

describe('CAPM3\'s webhooks', () => {
  it('serve CAPM3\'s paths: validation for every kind, defaulting for Metal3Cluster and Metal3RemediationTemplate', () => {
    expect(Object.keys(handlers).sort()).toEqual([
      '/mutate-infrastructure-cluster-x-k8s-io-v1beta2-metal3cluster', '/mutate-infrastructure-cluster-x-k8s-io-v1beta2-metal3remediationtemplate',
      ...['metal3cluster', 'metal3clustertemplate', 'metal3data', 'metal3dataclaim', 'metal3datatemplate', 'metal3machine', 'metal3machinetemplate',
        'metal3remediation', 'metal3remediationtemplate'].map((kind) => `/validate-infrastructure-cluster-x-k8s-io-v1beta2-${kind}`),
    ].sort());
  });

  it('default a Metal3Cluster\'s port and cloud provider, and leave what is set', () => {
    const response = review(mutatePath('Metal3Cluster'), { object: object('Metal3Cluster', { controlPlaneEndpoint: { host: '192.0.2.1' } }) });
    expect(response).toMatchObject({ allowed: true, patchType: 'JSONPatch' });
    expect(patchOf(response)).toEqual([
      { op: 'add', path: '/spec/controlPlaneEndpoint/port', value: 6443 },
      { op: 'add', path: '/spec/cloudProviderEnabled', value: false },
    ]);
    const set = review(mutatePath('Metal3Cluster'), { object: object('Metal3Cluster', { controlPlaneEndpoint: { host: 'h', port: 443 }, cloudProviderEnabled: true }) });
    expect(set).toEqual({ uid: 'u1', allowed: true });
  });

  it('refuse a Metal3Cluster without an endpoint host as 422 Invalid, worded as apimachinery does', () => {
    const response = review(validatePath('Metal3Cluster'), { object: object('Metal3Cluster', { controlPlaneEndpoint: { port: 6443 } }, { name: 'c1' }) });
    expect(response.allowed).toBe(false);
    expect(response.status).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(response.status?.message).toBe('Metal3Cluster.infrastructure.cluster.x-k8s.io "c1" is invalid: spec.controlPlaneEndpoint: Invalid value: "": '
      + 'is required: the host (VIP or load balancer) of the workload cluster API server');
    expect(response.status?.details?.causes).toEqual([{ type: 'FieldValueInvalid', field: 'spec.controlPlaneEndpoint',
      message: 'Invalid value: "": is required: the host (VIP or load balancer) of the workload cluster API server' }]);
  });

  it('refuse a Metal3ClusterTemplate without port or host', () => {
    const response = review(validatePath('Metal3ClusterTemplate'), { object: object('Metal3ClusterTemplate', { template: { spec: {} } }) });
    expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual(['spec.template.spec.controlPlaneEndpoint.host', 'spec.template.spec.controlPlaneEndpoint.port']);
  });

  it.each([
    ['no image and no custom deploy', {}, ['spec.image']],
    ['an oci:// image with a checksum', { image: { url: 'oci://127.0.0.1/os:1', checksum: 'abc' } }, ['spec.image.checksum']],
    ['a checksum URL that is not one', { image: { ...IMAGE, checksum: 'http://[::1' } }, ['spec.image.checksum']],
    ['user data in another namespace', { image: IMAGE, userData: { name: 'u', namespace: 'other' } }, ['spec.userData.namespace']],
  ])('refuse a Metal3Machine with %s', (_what, spec, fields) => {
    const response = review(validatePath('Metal3Machine'), { object: object('Metal3Machine', spec) });
    expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual(fields);
  });

  it('accept a Metal3Machine with a custom deploy method and no image, on create and update', () => {
    const machine = object('Metal3Machine', { customDeploy: { method: 'install_coreos' } });
    expect(review(validatePath('Metal3Machine'), { object: machine }).allowed).toBe(true);
    expect(review(validatePath('Metal3Machine'), { operation: 'UPDATE', object: machine, oldObject: machine }).allowed).toBe(true);
  });

  it('check a Metal3MachineTemplate\'s image under spec.template.spec', () => {
    const response = review(validatePath('Metal3MachineTemplate'), { object: object('Metal3MachineTemplate', { template: { spec: { image: { url: IMAGE.url } } } }) });
    expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual(['spec.template.spec.image.checksum']);
  });

  it('refuse a Metal3DataTemplate whose static network has no pool or whose interface is ambiguous, and warn about clusterName', () => {
    const response = review(validatePath('Metal3DataTemplate'), { object: object('Metal3DataTemplate', {
      clusterName: 'c1',
      metaData: { fromHostInterfaces: [{ key: 'mac', interface: 'eth0', fromBootMAC: true }, { key: 'mac2' }] },
      networkData: { networks: { ipv4: [{ id: 'n', link: 'l' }], ipv6: [{ id: 'n6', link: 'l', fromPoolRef: { name: 'p6' } }] } },
    }) });
    expect(response.status?.details?.causes.map((cause) => cause.field)).toEqual([
      'spec.metaData.fromHostInterfaces[0].interface', 'spec.metaData.fromHostInterfaces[1].interface', 'spec.networkData.networks.ipv4[0].fromPoolRef.name',
    ]);
    expect(response.warnings).toEqual([expect.stringContaining('spec.clusterName is deprecated')]);
  });

  it('refuse changing a Metal3DataTemplate\'s metaData or networkData, and allow the rest', () => {
    const old = object('Metal3DataTemplate', { metaData: { strings: [{ key: 'a', value: '1' }] } });
    const changed = object('Metal3DataTemplate', { metaData: { strings: [{ key: 'a', value: '2' }] } });
    expect(review(validatePath('Metal3DataTemplate'), { operation: 'UPDATE', object: changed, oldObject: old }).status?.details?.causes)
      .toEqual([expect.objectContaining({ field: 'spec.metaData', message: expect.stringContaining('cannot be modified') })]);
    const relabelled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
    expect(review(validatePath('Metal3DataTemplate'), { operation: 'UPDATE', object: relabelled, oldObject: old }).allowed).toBe(true);
  });

  it('hold a Metal3Data to <template>-<index>, and its index, template and claim to what they were', () => {
    const data = (name: string, index: number) => object('Metal3Data', { index, template: { name: 'tpl' }, claim: { name: 'm1' } }, { name });
    expect(review(validatePath('Metal3Data'), { object: data('tpl-0', 0) }).allowed).toBe(true);
    expect(review(validatePath('Metal3Data'), { object: data('tpl-1', 0) }).status?.message).toContain('<Metal3DataTemplate name>-<index> (tpl-0)');
    expect(review(validatePath('Metal3Data'), { operation: 'UPDATE', object: data('tpl-0', 1), oldObject: data('tpl-0', 0) }).status?.details?.causes
      .map((cause) => cause.field)).toEqual(['spec.index']);
  });

  it('hold a Metal3DataClaim to a template in its own namespace, never changed', () => {
    const claim = (template: Record<string, string>) => object('Metal3DataClaim', { template });
    expect(review(validatePath('Metal3DataClaim'), { object: claim({ name: 't', namespace: 'other' }) }).status?.details?.causes.map((cause) => cause.field))
      .toEqual(['spec.template.namespace']);
    expect(review(validatePath('Metal3DataClaim'), { operation: 'UPDATE', object: claim({ name: 't2' }), oldObject: claim({ name: 't' }) }).allowed).toBe(false);
    expect(review(validatePath('Metal3DataClaim'), { object: claim({ name: 't', namespace: 'ns' }) }).allowed).toBe(true);
  });

  it('default a Metal3RemediationTemplate\'s strategy, and refuse a Metal3Remediation whose strategy names no type', () => {
    const response = review(mutatePath('Metal3RemediationTemplate'), { object: object('Metal3RemediationTemplate', { template: { spec: {} } }) });
    expect(patchOf(response)).toEqual([
      { op: 'add', path: '/spec/template/spec/strategy', value: { type: 'Reboot' } },
      { op: 'add', path: '/spec/template/spec/strategy/timeoutSeconds', value: 600 },
      { op: 'add', path: '/spec/template/spec/strategy/retryLimit', value: 1 },
    ]);
    const untyped = review(validatePath('Metal3Remediation'), { object: object('Metal3Remediation', { strategy: { retryLimit: 1, timeoutSeconds: 600 } }) });
    expect(untyped.status?.details?.causes.map((cause) => cause.field)).toEqual(['spec.strategy.type']);
    expect(review(validatePath('Metal3Remediation'), { object: object('Metal3Remediation', {}) }).allowed).toBe(true);
  });

  it('let deletions through, and refuse an object the kind\'s schema cannot read with the reason', () => {
    expect(review(validatePath('Metal3Machine'), { operation: 'DELETE', object: null }).allowed).toBe(true);
    const unreadable = review(validatePath('Metal3Machine'), { object: { metadata: { name: 'x' }, spec: { image: { url: 7 } } } });
    expect(unreadable).toMatchObject({ allowed: false, status: { code: 403, message: expect.stringContaining('not a valid Metal3Machine: spec.image.url') } });
  });
});
