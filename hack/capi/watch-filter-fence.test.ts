import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { impersonatingKubeconfig, watchFilterFenceObjects, watchFilterUser } from './watch-filter-fence.ts';

// The policy's effect on a real API server: test/integration/capi/capi-manager.test.ts.
const ADMIN = `apiVersion: v1
kind: Config
clusters: [{name: stack, cluster: {server: 'https://127.0.0.1:6443', certificate-authority-data: Q0E=}}]
users: [{name: admin, user: {client-certificate-data: Q0VSVA==, client-key-data: S0VZ}}]
contexts: [{name: admin@stack, context: {cluster: stack, user: admin}}]
current-context: admin@stack
`;

describe('watch-filter fence', () => {
  it('a scoped manager keeps the admin credentials, impersonating its own user in system:masters', () => {
    const config = parse(impersonatingKubeconfig(ADMIN, watchFilterUser('e2e-md-1'))) as { users: { user: Record<string, unknown> }[]; clusters: unknown[] };
    expect(config.users[0]?.user).toEqual({
      'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ', as: 'metal3-ts:capi-manager:e2e-md-1', 'as-groups': ['system:masters'],
    });
    expect(config.clusters).toEqual((parse(ADMIN) as { clusters: unknown[] }).clusters);
  });

  it('refuses a kubeconfig without a user for its context', () => {
    expect(() => impersonatingKubeconfig('apiVersion: v1\nkind: Config\ncontexts: []\n', 'x')).toThrow('no user for its current context');
  });

  it('the policy matches only scoped managers\' writes to Cluster API groups, deleted objects by their old labels', () => {
    const [policy, binding] = watchFilterFenceObjects() as [{ spec: Record<string, unknown> }, { spec: Record<string, unknown> }];
    expect(policy.spec).toMatchObject({
      matchConstraints: { resourceRules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['*/*'] }] },
      matchConditions: [{ expression: "request.userInfo.username.startsWith('metal3-ts:capi-manager:')" }],
    });
    expect(JSON.stringify(policy.spec.variables)).toContain("request.operation == 'DELETE' ? oldObject : object");
    expect(binding.spec).toEqual({ policyName: 'metal3-ts-capi-watch-filter-fence', validationActions: ['Deny'] });
  });
});
