import type { Kubectl } from '../../support/kubectl.ts';

/**
 * A stand-in infrastructure provider for core Cluster API alone: CRDs with the v1beta2
 * contract label and free-form schemas, whose status the test writes by hand (what CAPM3's
 * Metal3Cluster/Metal3Machine will do for real). Its own API group, so it never clashes
 * with the provider's CRDs in the shared test stack.
 */
export const testInfraGroup = 'infrastructure.metal3-ts.test';

function crd(kind: string, status: boolean) {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    // Core Cluster API reads which of its contracts a provider's version implements from this label.
    metadata: { name: `${plural}.${testInfraGroup}`, labels: { 'cluster.x-k8s.io/v1beta2': 'v1alpha1' } },
    spec: {
      group: testInfraGroup,
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      versions: [{
        name: 'v1alpha1', served: true, storage: true,
        ...(status ? { subresources: { status: {} } } : {}),
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      }],
    },
  };
}

export async function installTestInfrastructureCrds(kubectl: Kubectl): Promise<void> {
  const crds = [crd('TestCluster', true), crd('TestMachine', true), crd('TestMachineTemplate', false)];
  await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], crds.map((entry) => JSON.stringify(entry)).join('\n---\n'));
  await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', ...crds.map((entry) => `crd/${entry.metadata.name}`)]);
}
