import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IPAM_IDENTITY, OPERATOR_IDENTITY, PROVIDER_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { isAlive } from '../../../hack/stack/processes.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace } from '../../support/namespaces.ts';
import { startIpamProcess } from '../../support/ipam-process.ts';
import { startOperatorProcess } from '../../support/operator-process.ts';
import { startProviderProcess } from '../../support/provider-process.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { waitFor } from '../../support/wait-for.ts';

interface Lease { spec: { holderIdentity?: string; renewTime?: string } }

/**
 * The installed Deployments run with --leader-elect and their Lease in their own namespace: the
 * processes, with their ServiceAccounts' tokens, take and renew that Lease through the Role there.
 */
describe('leader election with the ServiceAccounts from deploy/', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  const suffix = randomBytes(4).toString('hex');

  beforeAll(async () => {
    namespace = await createUniqueNamespace(kubectl, 'deploy-leases');
  });

  afterAll(async () => {
    if (namespace) await deleteNamespace(kubectl, namespace);
    kubectl.dispose();
  });

  const renewedLease = async (leaseNamespace: string, name: string, isRunning: () => boolean) => {
    let first: Lease | undefined;
    // Taken, then renewed: a Lease written once and never updated would mean update is forbidden.
    return waitFor(async () => {
      if (!isRunning()) throw new Error('the process exited');
      const found = await kubectl.run(['get', 'lease', name, '-n', leaseNamespace, '-o', 'json']);
      if (found.code !== 0) return undefined;
      const lease = JSON.parse(found.stdout) as Lease;
      first ??= lease;
      return lease.spec.holderIdentity && lease.spec.renewTime !== first.spec.renewTime ? lease : undefined;
    }, { timeoutMs: 60_000, intervalMs: 500, what: `Lease ${leaseNamespace}/${name} held and renewed` });
  };

  it('the operator takes and renews its Lease in baremetal-operator-system', async () => {
    const id = `rbac-test-operator-${suffix}`;
    const operator = startOperatorProcess({
      env, namespace, label: `leases-${suffix}`,
      extraEnv: {
        PROVISIONER: 'fixture', LEADER_ELECT: 'true', LEADER_ELECTION_ID: id,
        LEADER_ELECTION_NAMESPACE: OPERATOR_IDENTITY.namespace,
        // Short terms so a renewal comes soon.
        LEADER_ELECTION_LEASE_DURATION: '4s', LEADER_ELECTION_RENEW_DEADLINE: '3s', LEADER_ELECTION_RETRY_PERIOD: '1s',
      },
    });
    try {
      const lease = await renewedLease(OPERATOR_IDENTITY.namespace, id, () => isAlive(operator.process.pid));
      expect(lease.spec.holderIdentity).toBeTruthy();
    } finally {
      await operator.stop();
    }
  });

  it.each([
    { who: 'provider', identity: PROVIDER_IDENTITY, start: startProviderProcess },
    { who: 'IPAM', identity: IPAM_IDENTITY, start: startIpamProcess },
  ])('the $who takes and renews its Lease in $identity.namespace', async ({ who, identity, start }) => {
    const id = `rbac-test-${who.toLowerCase()}-${suffix}`;
    const controller = start({
      env, namespace, label: `leases-${suffix}`,
      extraEnv: {
        LEADER_ELECT: 'true', LEADER_ELECTION_ID: id, LEADER_ELECTION_NAMESPACE: identity.namespace,
        LEADER_ELECTION_LEASE_DURATION: '4s', LEADER_ELECTION_RENEW_DEADLINE: '3s', LEADER_ELECTION_RETRY_PERIOD: '1s',
      },
    });
    try {
      const lease = await renewedLease(identity.namespace, id, () => isAlive(controller.process.pid));
      expect(lease.spec.holderIdentity).toBeTruthy();
    } finally {
      await controller.stop();
    }
  });
});
