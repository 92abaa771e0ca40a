import { describe, expect, it } from '@jest/globals';
import { controlPlanePods, kubeadmStep } from './kubeadm.ts';
import { kubeadmInitUserData, kubeadmJoinUserData } from './test-support/kubeadm-user-data.ts';

describe('kubeadmStep', () => {
  it('reads kubeadm init and its ClusterConfiguration from Cluster API bootstrap data', () => {
    const step = kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' }));
    expect(step).toMatchObject({ command: 'init', controlPlane: true, apiServerBindPort: 6443 });
    expect(step && 'clusterConfiguration' in step ? step.clusterConfiguration : '').toMatch(/^apiVersion: kubeadm.k8s.io\/v1beta4\nkind: ClusterConfiguration\nclusterName: c1\n/);
  });

  it('reads the cluster\'s etcd CA a control plane node is given', () => {
    const etcdCa = { cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', key: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n' };
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0', etcdCa }))).toMatchObject({ etcdCa });
    expect(kubeadmStep(kubeadmInitUserData({ clusterName: 'c1', kubernetesVersion: 'v1.35.0' }))).not.toHaveProperty('etcdCa');
  });

  it('reads a worker join and a control plane join with their bootstrap token', () => {
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: false })))
      .toEqual({ command: 'join', controlPlane: false, token: { id: 'abcdef', secret: '0123456789abcdef' }, apiServerBindPort: 6443 });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true })))
      .toMatchObject({ command: 'join', controlPlane: true, apiServerBindPort: 6443 });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'abcdef.0123456789abcdef', controlPlane: true, apiServerBindPort: 16443 })))
      .toMatchObject({ command: 'join', controlPlane: true, apiServerBindPort: 16443 });
    expect(kubeadmStep(kubeadmJoinUserData({ token: 'not-a-token', controlPlane: false })))
      .toEqual({ command: 'join', controlPlane: false, token: undefined, apiServerBindPort: 6443 });
  });

  it('a base64 config file and a runcmd given as an argument list', () => {
    const config = Buffer.from('kind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    token: abcdef.0123456789abcdef\n').toString('base64');
    const userData = `#cloud-config\nwrite_files:\n- path: /etc/j.yaml\n  encoding: b64\n  content: ${config}\nruncmd:\n- [kubeadm, join, --config, /etc/j.yaml]\n`;
    expect(kubeadmStep(userData)).toEqual({ command: 'join', controlPlane: false, token: { id: 'abcdef', secret: '0123456789abcdef' }, apiServerBindPort: 6443 });
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
