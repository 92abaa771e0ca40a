import { afterAll, describe, expect, it } from '@jest/globals';
import {
  IPAM_IDENTITY, OPERATOR_IDENTITY, PROVIDER_IDENTITY, identityUser, type ControllerIdentity,
} from '../../../hack/stack/controller-identity.ts';
import { renderKustomization } from '../../../hack/stack/kustomize.ts';
import { controllerKubeconfig } from '../../support/controller-identities.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { flattenRules, grantedPermissions } from './granted-permissions.ts';

// What every authenticated user may do (system:basic-user): ask what it may do.
const EVERYONE = [
  'create authentication.k8s.io/selfsubjectreviews',
  'create authorization.k8s.io/selfsubjectaccessreviews',
  'create authorization.k8s.io/selfsubjectrulesreviews',
];
const LEASE = ['create coordination.k8s.io/leases', 'get coordination.k8s.io/leases', 'update coordination.k8s.io/leases'];
const EVENTS = ['create events.k8s.io/events', 'patch events.k8s.io/events'];
const verbs = (resource: string, list: string[]) => list.map((verb) => `${verb} ${resource}`);
// The secure metrics server's reviews of each scrape's token (BMO's metrics-auth-role, CAPM3's role).
const METRICS_AUTH = ['create authentication.k8s.io/tokenreviews', 'create authorization.k8s.io/subjectaccessreviews'];

/** The declared list: every grant the operator's roles may give, in any namespace. */
const OPERATOR_GRANTS = [
  ...verbs('metal3.io/baremetalhosts', ['get', 'list', 'watch', 'patch']),
  'patch metal3.io/baremetalhosts/status',
  'update metal3.io/baremetalhosts/finalizers',
  ...verbs('metal3.io/hardwaredata', ['get', 'list', 'watch', 'create', 'update', 'patch']),
  ...verbs('metal3.io/hostfirmwaresettings', ['get', 'list', 'watch', 'create', 'patch']),
  'patch metal3.io/hostfirmwaresettings/status',
  ...verbs('metal3.io/hostfirmwarecomponents', ['get', 'list', 'watch', 'create', 'patch']),
  'patch metal3.io/hostfirmwarecomponents/status',
  ...verbs('metal3.io/firmwareschemas', ['get', 'list', 'watch', 'create', 'update']),
  ...verbs('metal3.io/dataimages', ['get', 'list', 'watch', 'patch']),
  'patch metal3.io/dataimages/status',
  ...verbs('metal3.io/bmceventsubscriptions', ['get', 'list', 'watch', 'patch']),
  'patch metal3.io/bmceventsubscriptions/status',
  ...verbs('metal3.io/hostupdatepolicies', ['get', 'list', 'watch', 'update']),
  ...verbs('metal3.io/preprovisioningimages', ['get', 'list', 'watch', 'create', 'patch']),
  'patch metal3.io/preprovisioningimages/status',
  ...verbs('metal3.io/hostclaims', ['get', 'list', 'watch', 'patch']),
  'patch metal3.io/hostclaims/status',
  ...verbs('metal3.io/hostdeploypolicies', ['get', 'list', 'watch']),
  ...verbs('metal3.io/baremetalswitches', ['get', 'list', 'watch']),
  'patch metal3.io/baremetalswitches/status',
  'get core/namespaces',
  ...verbs('core/secrets', ['get', 'list', 'watch', 'patch']),
  ...EVENTS,
  ...METRICS_AUTH,
];

/** The declared list for the provider. */
const PROVIDER_GRANTS = [
  ...['metal3machines', 'metal3clusters'].flatMap((kind) => verbs(`infrastructure.cluster.x-k8s.io/${kind}`, ['get', 'list', 'watch', 'patch'])),
  'patch infrastructure.cluster.x-k8s.io/metal3machines/status',
  'patch infrastructure.cluster.x-k8s.io/metal3clusters/status',
  ...verbs('infrastructure.cluster.x-k8s.io/metal3machinetemplates', ['get', 'list', 'watch']),
  ...verbs('infrastructure.cluster.x-k8s.io/metal3remediations', ['get', 'list', 'watch', 'patch']),
  'patch infrastructure.cluster.x-k8s.io/metal3remediations/status',
  ...verbs('infrastructure.cluster.x-k8s.io/metal3datatemplates', ['get', 'list', 'watch', 'patch']),
  ...['metal3dataclaims', 'metal3datas'].flatMap((kind) => verbs(`infrastructure.cluster.x-k8s.io/${kind}`, ['get', 'list', 'watch', 'create', 'patch', 'delete'])),
  ...['metal3datatemplates', 'metal3dataclaims', 'metal3datas'].map((kind) => `patch infrastructure.cluster.x-k8s.io/${kind}/status`),
  ...['ipam.metal3.io', 'ipam.cluster.x-k8s.io'].flatMap((group) => [
    ...['ipclaims', 'ipaddressclaims'].flatMap((kind) => verbs(`${group}/${kind}`, ['get', 'list', 'create', 'patch', 'delete'])),
    `get ${group}/ipaddresses`,
  ]),
  ...['clusters', 'machines'].flatMap((kind) => verbs(`cluster.x-k8s.io/${kind}`, ['get', 'list', 'watch'])),
  'patch cluster.x-k8s.io/machines/status',
  'get cluster.x-k8s.io/machinesets',
  'get controlplane.cluster.x-k8s.io/kubeadmcontrolplanes',
  ...verbs('metal3.io/baremetalhosts', ['get', 'list', 'watch', 'patch']),
  ...verbs('core/secrets', ['get', 'patch', 'create', 'delete']),
  ...EVENTS,
  ...METRICS_AUTH,
];

/** The declared list for the IP address manager: both IPAM API groups, nothing else but Events and its metrics' reviews. */
const IPAM_GRANTS = [
  ...['ippools', 'ipclaims'].flatMap((kind) => verbs(`ipam.metal3.io/${kind}`, ['get', 'list', 'watch', 'patch'])),
  'patch ipam.metal3.io/ippools/status',
  'patch ipam.metal3.io/ipclaims/status',
  ...verbs('ipam.metal3.io/ipaddresses', ['get', 'list', 'watch', 'create', 'patch', 'delete']),
  ...verbs('ipam.cluster.x-k8s.io/ipaddressclaims', ['get', 'list', 'watch', 'patch']),
  'patch ipam.cluster.x-k8s.io/ipaddressclaims/status',
  ...verbs('ipam.cluster.x-k8s.io/ipaddresses', ['get', 'list', 'watch', 'create', 'patch', 'delete']),
  ...EVENTS,
  ...METRICS_AUTH,
];

const sorted = (lines: string[]) => [...lines].sort();

describe('RBAC from deploy/: the permissions the API server grants each ServiceAccount are the declared ones', () => {
  const env = readStackEnv();
  const clients: Kubectl[] = [];
  const as = (identity: ControllerIdentity) => {
    const client = new Kubectl({ kubectl: env.kubectl, kubeconfig: controllerKubeconfig(env.stateDir, identity) });
    clients.push(client);
    return client;
  };

  afterAll(() => clients.forEach((client) => client.dispose()));

  it.each([
    ['operator', OPERATOR_IDENTITY, OPERATOR_GRANTS],
    ['provider', PROVIDER_IDENTITY, PROVIDER_GRANTS],
    ['IPAM', IPAM_IDENTITY, IPAM_GRANTS],
  ])('the %s token is its ServiceAccount, granted exactly the declared list (the Lease only at home)', async (_, identity, grants) => {
    const kubectl = as(identity);
    const whoami = JSON.parse(await kubectl.ok(['auth', 'whoami', '-o', 'json'])) as { status: { userInfo: { username: string; groups: string[] } } };
    expect(whoami.status.userInfo.username).toBe(identityUser(identity));
    expect(whoami.status.userInfo.groups).not.toContain('system:masters');

    // In any namespace but its own: the ClusterRole only.
    const elsewhere = await grantedPermissions(kubectl, 'default');
    expect(elsewhere.resources).toEqual(sorted([...grants, ...EVERYONE]));
    // At home: the leader election Lease too.
    const home = await grantedPermissions(kubectl, identity.namespace);
    expect(home.resources).toEqual(sorted([...grants, ...LEASE, ...EVERYONE]));
    // Discovery and health URLs only, read-only.
    expect(home.nonResourceVerbs).toEqual(['get']);
  });

  it('the namespace-scoped operator is granted the same list, in its own namespace only (token reviews are cluster-wide, as in BMO)', async () => {
    const objects = await renderKustomization({ kubectl: env.kubectl, directory: 'deploy/operator/namespace-scoped' });
    const named = (kind: string) => objects.filter((object) => object.kind === kind).map((object) => object.metadata.name);
    expect(named('ClusterRole').sort()).toEqual(['baremetal-operator-metrics-auth-role', 'baremetal-operator-metrics-reader']);
    expect(named('ClusterRoleBinding')).toEqual(['baremetal-operator-metrics-auth-rolebinding']);
    const roles = objects.filter((object) => object.kind === 'Role') as unknown as { metadata: { namespace: string }; rules: never[] }[];
    expect(roles.map((role) => role.metadata.namespace)).toEqual(roles.map(() => OPERATOR_IDENTITY.namespace));
    expect(sorted(roles.flatMap((role) => flattenRules(role.rules)))).toEqual(sorted([...OPERATOR_GRANTS.filter((grant) => !METRICS_AUTH.includes(grant)), ...LEASE]));
  });

  // Only the provider writes Secrets: the meta and network data a Metal3Data renders (created,
  // and deleted with it). Nobody updates a Secret, so nobody can rewrite credentials or user data.
  it.each([
    ['deploy/operator/default', []], ['deploy/operator/namespace-scoped', []], ['deploy/capm3/default', ['create', 'delete']], ['deploy/ipam/default', []],
  ])(
    '%s grants no wildcard, no non-resource URL but the metrics reader\'s, and of Secret writes only %j',
    async (directory, secretWrites) => {
      const objects = await renderKustomization({ kubectl: env.kubectl, directory });
      const isReader = (object: { metadata: { name: string } }) => object.metadata.name.endsWith('-metrics-reader');
      const readers = objects.filter(isReader) as unknown as { rules: unknown[] }[];
      // For scrapers only, bound to nobody: get /metrics.
      for (const reader of readers) expect(reader.rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
      expect(objects.filter((object) => object.kind.endsWith('Binding'))
        .map((binding) => (binding as unknown as { roleRef: { name: string } }).roleRef.name).filter((name) => name.endsWith('-metrics-reader'))).toEqual([]);
      const rules = objects
        .filter((object) => (object.kind === 'ClusterRole' || object.kind === 'Role') && !isReader(object))
        .flatMap((role) => (role as unknown as { rules: { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] }[] }).rules);
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        expect([...(rule.apiGroups ?? []), ...(rule.resources ?? []), ...rule.verbs]).not.toContain('*');
        expect(rule.nonResourceURLs).toBeUndefined();
      }
      const secretVerbs = flattenRules(rules).filter((line) => line.endsWith(' core/secrets')).map((line) => line.split(' ')[0]);
      expect(secretVerbs.filter((verb) => !['get', 'list', 'watch', 'patch'].includes(verb ?? '')).sort()).toEqual(secretWrites);
    },
  );
});
