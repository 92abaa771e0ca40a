// Cluster API's --watch-filter does not cover the watches its controllers add for referenced
// objects (`external.ObjectTracker`: Metal3Machines, KubeadmConfigs, KubeadmControlPlanes): an event
// on any of them, in any namespace, queues its owner Machine or Cluster, and the Machine and
// Cluster controllers then reconcile it whatever its label. With several test files' managers on
// one API server, each reconciled the others' Machines and Clusters (CI run 81: a remediation
// file's manager 273 passes over the kubeadm file's Machines, one helping delete another file's
// Cluster). So a scoped manager talks to the API server as a user of its own (the admin's
// credentials, impersonating), and an admission policy refuses its writes to Cluster API objects
// labelled for another filter.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { run } from '../stack/commands.ts';

const USER_PREFIX = 'metal3-ts:capi-manager:';
const WATCH_LABEL = 'cluster.x-k8s.io/watch-filter';
const POLICY_NAME = 'metal3-ts-capi-watch-filter-fence';

/** The user a manager scoped by `watchFilter` acts as. */
export const watchFilterUser = (watchFilter: string): string => `${USER_PREFIX}${watchFilter}`;

interface KubeconfigFile {
  'current-context'?: string;
  contexts?: { name: string; context: { user: string } }[];
  users?: { name: string; user: Record<string, unknown> }[];
}

/**
 * The admin kubeconfig, its current user impersonating `user` in `system:masters`: the same
 * rights, under a name the admission policy can tell apart.
 */
export function impersonatingKubeconfig(adminKubeconfig: string, user: string): string {
  const config = parse(adminKubeconfig) as KubeconfigFile;
  const context = config.contexts?.find((entry) => entry.name === config['current-context']) ?? config.contexts?.[0];
  const admin = config.users?.find((entry) => entry.name === context?.context.user);
  if (!admin) throw new Error('the admin kubeconfig has no user for its current context');
  admin.user = { ...admin.user, as: user, 'as-groups': ['system:masters'] };
  return stringify(config);
}

/** The ValidatingAdmissionPolicy and its binding: cluster-wide, the same for every manager. */
export function watchFilterFenceObjects(): Record<string, unknown>[] {
  const target = "request.operation == 'DELETE' ? oldObject : object";
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: POLICY_NAME },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{
            apiGroups: ['cluster.x-k8s.io', 'controlplane.cluster.x-k8s.io', 'bootstrap.cluster.x-k8s.io', 'infrastructure.cluster.x-k8s.io'],
            apiVersions: ['*'],
            operations: ['CREATE', 'UPDATE', 'DELETE'],
            resources: ['*/*'], // every resource and subresource
          }],
        },
        matchConditions: [{ name: 'scoped-cluster-api-manager', expression: `request.userInfo.username.startsWith('${USER_PREFIX}')` }],
        variables: [
          { name: 'labels', expression: `has((${target}).metadata.labels) ? (${target}).metadata.labels : {}` },
          { name: 'owner', expression: `'${WATCH_LABEL}' in variables.labels ? variables.labels['${WATCH_LABEL}'] : ''` },
        ],
        validations: [{
          // Objects without the label belong to no file: left to whoever writes them.
          expression: `variables.owner == '' || request.userInfo.username == '${USER_PREFIX}' + variables.owner`,
          messageExpression: `request.userInfo.username + ' may not write ' + request.resource.resource + ' ' + request.namespace + '/' + request.name + ', which is labelled ${WATCH_LABEL}=' + variables.owner`,
          reason: 'Forbidden',
        }],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: POLICY_NAME },
      spec: { policyName: POLICY_NAME, validationActions: ['Deny'] },
    },
  ];
}

/** Installs the policy (idempotent: every manager applies the same objects) and writes the manager's kubeconfig to `path`. */
export async function fenceManager(
  target: { kubectl: string; kubeconfig: string },
  options: { watchFilter: string; path: string },
): Promise<void> {
  await run(target.kubectl, ['--kubeconfig', target.kubeconfig, 'apply', '--server-side', '--force-conflicts', '--field-manager=metal3-ts-capi-fence', '-f', '-'], {
    component: 'capi watch-filter fence',
    input: watchFilterFenceObjects().map((object) => stringify(object)).join('---\n'),
  });
  writeFileSync(options.path, impersonatingKubeconfig(readFileSync(target.kubeconfig, 'utf8'), watchFilterUser(options.watchFilter)), { mode: 0o600 });
}
