import { describe, expect, it } from '@jest/globals';
import { renderUserData } from './cloud-init-jinja.ts';
import { controlPlanePods, kubeadmStep as stepOfRendered } from './kubeadm.ts';
import { kubeadmInitUserData, kubeadmJoinUserData } from './test-support/kubeadm-user-data.ts';

const META_DATA = { uuid: '7c5b1a2e-0d7e-4c39-9f0a-3b1f2f9e6a10', 'local-hostname': 'cp-0', name: 'cp-0' };
/** The step cloud-init would run: Jinja rendered against the config drive's meta_data first. */
const kubeadmStep = (userData: string | undefined) => stepOfRendered(renderUserData(userData, META_DATA));
const KUBELET = { name: 'cp-0', labels: {} };

describe('kubeadmStep', () => {
  it('reads kubeadm init and its ClusterConfiguration from Cluster API bootstrap data', () => {
    const step = kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' }));
    expect(step).toMatchObject({ command: 'init', controlPlane: true, apiServerBindPort: 6443 });
    expect(step && 'clusterConfiguration' in step ? step.clusterConfiguration : '').toMatch(/^apiVersion: kubeadm.k8s.io\/v1beta4\nkind: ClusterConfiguration\nclusterName: c1\n/);
  });

  it('runs kube-proxy\'s addon unless init skips it (the phase, or all addons) or the ClusterConfiguration disables the proxy', () => {
    const init = (options: { skipPhases?: string[] } = {}) => kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', ...options }));
    expect(init()).toMatchObject({ kubeProxy: true });
    expect(init({ skipPhases: ['addon/coredns'] })).toMatchObject({ kubeProxy: true });
    for (const phase of ['addon/kube-proxy', 'addon/all', 'addon']) expect([phase, init({ skipPhases: [phase] })]).toMatchObject([phase, { kubeProxy: false }]);
    const disabled = kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' })
      .replace('controlPlaneEndpoint: 127.0.0.1:6443\n', 'controlPlaneEndpoint: 127.0.0.1:6443\n      proxy:\n        disabled: true\n');
    expect(disabled).toContain('disabled: true');
    expect(kubeadmStep(disabled)).toMatchObject({ kubeProxy: false });
  });

  it('reads the cluster\'s etcd CA a control plane node is given', () => {
    const etcdCa = { cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', key: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n' };
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', etcdCa }))).toMatchObject({ etcdCa });
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' }))).not.toHaveProperty('etcdCa');
  });

  it('reads a worker join and a control plane join with their bootstrap token', () => {
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false })))
      .toEqual({ command: 'join', controlPlane: false, token: { id: 'abcdef', secret: '0123456789abcdef' }, apiServerBindPort: 6443, kubelet: KUBELET });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true })))
      .toMatchObject({ command: 'join', controlPlane: true, apiServerBindPort: 6443 });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true, apiServerBindPort: 16443 })))
      .toMatchObject({ command: 'join', controlPlane: true, apiServerBindPort: 16443 });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'not-a-token', controlPlane: false })))
      .toEqual({ command: 'join', controlPlane: false, token: undefined, apiServerBindPort: 6443, kubelet: KUBELET });
  });

  it('a base64 config file and a runcmd given as an argument list', () => {
    const config = Buffer.from('kind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    token: abcdef.0123456789abcdef\n').toString('base64');
    const userData = `#cloud-config\nwrite_files:\n- path: /etc/j.yaml\n  encoding: b64\n  content: ${config}\nruncmd:\n- [kubeadm, join, --config, /etc/j.yaml]\n`;
    expect(kubeadmStep(userData)).toEqual({ command: 'join', controlPlane: false, token: { id: 'abcdef', secret: '0123456789abcdef' }, apiServerBindPort: 6443,
      kubelet: { name: undefined, labels: {} } });
  });

  it('gives the kubelet the Node name and the --node-labels the rendered nodeRegistration names', () => {
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', nodeLabels: 'metal3.io/uuid={{ ds.meta_data.uuid }},tier=cp' })))
      .toMatchObject({ kubelet: { name: 'cp-0', labels: { 'metal3.io/uuid': META_DATA.uuid, tier: 'cp' } } });
    // kubeadm v1beta3's map form.
    const v1beta3 = '#cloud-config\nwrite_files:\n- path: /j.yaml\n  content: |\n    kind: JoinConfiguration\n    nodeRegistration:\n'
      + '      kubeletExtraArgs:\n        node-labels: a=b\nruncmd:\n- kubeadm join --config /j.yaml\n';
    expect(kubeadmStep(v1beta3)).toMatchObject({ kubelet: { name: undefined, labels: { a: 'b' } } });
  });

  it('gives the kubelet the --provider-id the rendered nodeRegistration names, as CAPM3\'s e2e templates set it from the meta_data', () => {
    const metaData = { ...META_DATA, providerid: 'ns-1/host-0/m3m-0' };
    const join = kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false, providerID: 'metal3://{{ ds.meta_data.providerid }}' });
    expect(stepOfRendered(renderUserData(join, metaData))).toMatchObject({ kubelet: { name: 'cp-0', providerID: 'metal3://ns-1/host-0/m3m-0' } });
    // Without a providerid in the meta_data (no Metal3DataTemplate), cloud-init's placeholder is what the kubelet gets.
    expect(kubeadmStep(join)).toMatchObject({ kubelet: { providerID: 'metal3://CI_MISSING_JINJA_VAR/providerid' } });
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' }))).toMatchObject({ kubelet: { providerID: undefined } });
    const v1beta3 = '#cloud-config\nwrite_files:\n- path: /j.yaml\n  content: |\n    kind: JoinConfiguration\n    nodeRegistration:\n'
      + '      kubeletExtraArgs:\n        provider-id: metal3://a/b/c\nruncmd:\n- kubeadm join --config /j.yaml\n';
    expect(kubeadmStep(v1beta3)).toMatchObject({ kubelet: { providerID: 'metal3://a/b/c' } });
  });

  it('a name or label the kubelet would refuse (a variable the meta_data lacks) fails the step', () => {
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false, nodeLabels: 'metal3.io/uuid={{ ds.meta_data.missing }}' })))
      .toEqual({ command: 'join', controlPlane: false, invalid: 'kubelet --node-labels: "metal3.io/uuid=CI_MISSING_JINJA_VAR/missing" is not a valid label' });
    // The classic one: a role label only an admin may set; kubelet exits at start.
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false,
      nodeLabels: 'node-role.kubernetes.io/worker=,node.kubernetes.io/pool=a,topology.kubernetes.io/zone=z1' })))
      .toEqual({ command: 'join', controlPlane: false,
        invalid: 'kubelet --node-labels: unknown \'kubernetes.io\' or \'k8s.io\' labels node-role.kubernetes.io/worker: a kubelet may not set them' });
    expect(stepOfRendered(renderUserData(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true }), {})))
      .toEqual({ command: 'join', controlPlane: true, invalid: 'nodeRegistration.name "CI_MISSING_JINJA_VAR/local_hostname" is not a valid Node name (a lowercase RFC 1123 subdomain)' });
  });

  it('kubeadm with a config it cannot read fails; user data without kubeadm runs none', () => {
    expect(kubeadmStep('#cloud-config\nruncmd:\n- kubeadm init --config /missing.yaml\n'))
      .toEqual({ command: 'init', controlPlane: true, invalid: 'no kubeadm config file /missing.yaml' });
    expect(kubeadmStep('#cloud-config\nwrite_files:\n- path: /k.yaml\n  content: "kind: InitConfiguration"\nruncmd:\n- kubeadm init --config /k.yaml\n'))
      .toEqual({ command: 'init', controlPlane: true, invalid: '/k.yaml has no ClusterConfiguration' });
    expect(kubeadmStep('#cloud-config\nhostname: a\nruncmd: [ls]\n')).toBeUndefined();
    expect(kubeadmStep('#!/bin/sh\nkubeadm init\n')).toBeUndefined();
    expect(kubeadmStep('#cloud-config\nruncmd:\n- kubeadm init\n')).toBeUndefined();
    expect(kubeadmStep(undefined)).toBeUndefined();
  });
});

describe('controlPlanePods', () => {
  const clusterConfiguration = (options: { externalEtcd: boolean }) => {
    const step = kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', ...options }));
    return step && 'clusterConfiguration' in step ? step.clusterConfiguration : '';
  };

  it('runs etcd beside the control plane components unless the cluster\'s etcd is external', () => {
    expect(controlPlanePods(clusterConfiguration({ externalEtcd: false }), { apiServerBindPort: 6443 })).toEqual({
      components: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd'], imageRepository: 'registry.k8s.io', kubernetesVersion: 'v1.35.0',
      apiServerBindPort: 6443,
    });
    expect(controlPlanePods(clusterConfiguration({ externalEtcd: true }), { apiServerBindPort: 6443 }).components).toEqual(['kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
  });

  it('takes the image repository the configuration names', () => {
    expect(controlPlanePods('kind: ClusterConfiguration\nimageRepository: mirror.example/k8s\n', { apiServerBindPort: 16443 }))
      .toEqual({ components: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd'], imageRepository: 'mirror.example/k8s',
        kubernetesVersion: undefined, apiServerBindPort: 16443 });
  });
});
