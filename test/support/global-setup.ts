import { readState } from '../../hack/stack/state.ts';
import { stackDown, stackUp } from '../../hack/stack/stack.ts';
import { installControllerIdentities } from './controller-identities.ts';
import { testStackDir } from './test-stack-dir.ts';

// Each e2e file owns its servers: BareMetalHost 0-4, Cluster API 5-11, day-2 12-15,
// Cluster API data templates and IPAM 16-19, remediation 20-23, provisioning limit 24-28,
// day-2 fidelity (health, config drive, metrics) 38-40.
const systems = 41;

/** A recorded stack this run can use: its env matches today's schema and it has enough servers. */
function reusable(stateDir: string): boolean {
  try {
    const state = readState(stateDir);
    return state !== undefined && state.env.systems.length >= systems;
  } catch {
    return false;
  }
}

/**
 * Brings the real stack up once per jest run (the integration and e2e projects
 * share it). With METAL3_TS_REUSE_STACK=1 a stack left running by an earlier
 * run is reused and left running, for fast local iterations.
 */
export default async function globalSetup(): Promise<void> {
  const stateDir = testStackDir();
  process.env.METAL3_TS_TEST_STACK_DIR = stateDir;
  if (process.env.METAL3_TS_TEST_STACK_OWNER) return;
  if (process.env.METAL3_TS_REUSE_STACK === '1' && reusable(stateDir)) {
    process.env.METAL3_TS_TEST_STACK_OWNER = 'reused';
    // deploy/'s roles may have changed since the stack came up, and tokens expire.
    await installControllerIdentities(stateDir);
    return;
  }
  await stackDown(stateDir);
  const started = Date.now();
  await stackUp({ stateDir, systems, ironicBasicAuth: false, bmcBasicAuth: true });
  process.env.METAL3_TS_TEST_STACK_OWNER = 'this-run';
  await installControllerIdentities(stateDir);
  console.log(`\ntest stack up in ${((Date.now() - started) / 1000).toFixed(1)} s (${stateDir})`);
}
