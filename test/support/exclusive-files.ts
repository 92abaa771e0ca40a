/**
 * Integration and e2e files that must have the test stack to themselves: `npm run test:stack`
 * runs them one at a time before the others, which run side by side (each on its own emulated
 * servers, in its own namespace). A file belongs here when it stops or restarts a stack
 * component, starts stacks of its own, or relies on a quiet machine for its timings.
 */
export const EXCLUSIVE_FILES: readonly { path: string; why: string }[] = [
  { path: 'test/e2e/baremetalhost/ironic-outage.test.ts', why: 'stops and restarts Ironic (an outage for every host)' },
  { path: 'test/e2e/baremetalhost/day2-ironic-db-loss.test.ts', why: "stops Ironic and empties its database under everyone's nodes" },
  { path: 'test/integration/runtime/controller.test.ts', why: "restarts the kube-apiserver (every process's watches break)" },
  { path: 'test/integration/runtime/apiserver-restart.test.ts', why: 'stops the kube-apiserver under a leader-elected manager (every watch and Lease renewal through it fails meanwhile)' },
  { path: 'test/integration/runtime/etcd-restart.test.ts', why: 'restarts etcd under the API servers (every watch and Lease renewal fails meanwhile)' },
  { path: 'test/integration/runtime/leader-election.test.ts', why: '4 s Leases: renewals must land on time, which a loaded machine does not promise' },
  { path: 'test/integration/stack/up-down.test.ts', why: 'brings whole stacks of its own up and down' },
  { path: 'test/integration/ironic-client/http-basic.test.ts', why: 'brings a stack of its own up and down' },
  { path: 'test/e2e/baremetalhost/hostclaim.test.ts', why: 'runs an operator over every namespace (HostClaims cross them), which would take other files\' hosts' },
  { path: 'test/integration/capm3/conversion.test.ts', why: 'points the provider CRDs (cluster-wide) at its process and back: the API server rebuilds their storage each time, ending every watch on them' },
  { path: 'test/e2e/baremetalhost/garbage-collection.test.ts', why: "runs Kubernetes' garbage collector, which would collect other files' objects whose owners they deleted" },
  { path: 'test/e2e/baremetalhost/namespace-deletion.test.ts', why: "runs Kubernetes' namespace controller and garbage collector, which would empty other files' namespaces as they delete them" },
  { path: 'test/integration/bench/bench-smoke.test.ts', why: 'the benchmark: its timings and process figures must not include other files\' load' },
];
