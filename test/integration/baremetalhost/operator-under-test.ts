import { Registry } from 'prom-client';
import { setupBareMetalHostController } from '../../../operator/controllers/baremetalhost/index.ts';
import { FixtureProvisioner } from '../../../operator/provisioner/fixture/index.ts';
import type { Provisioner } from '../../../operator/provisioner/provisioner.ts';
import { TransientProvisionerError } from '../../../operator/provisioner/result.ts';
import { KubeClient, Manager, createLogger, loadKubeConfig, silentLogger } from '../../../operator/runtime/index.ts';
import type { Logger } from '../../../operator/runtime/index.ts';
import { compileOperatorSettings } from '../../../operator/settings.ts';
import { OPERATOR_IDENTITY } from '../../../hack/stack/controller-identity.ts';
import { controllerKubeconfig } from '../../support/controller-identities.ts';
import type { StackEnv } from '../../support/stack-env.ts';

function testLogger(): Logger {
  const level = process.env.BMH_TEST_LOG;
  return level === 'debug' || level === 'info' || level === 'warn' || level === 'error'
    ? createLogger({ level, defaultMeta: { test: 'baremetalhost' } })
    : silentLogger();
}

export interface OperatorUnderTest {
  manager: Manager;
  fixture: FixtureProvisioner;
  /** The next `count` registrations fail as if Ironic were unreachable. */
  simulateOutage(count: number): void;
  stop(): Promise<void>;
}

/** The fixture, with registrations that can be made to throw a transient error. */
function withOutages(fixture: FixtureProvisioner): { provisioner: Provisioner; simulateOutage(count: number): void } {
  let failures = 0;
  const provisioner: Provisioner = {
    register: async (options) => {
      if (failures > 0) {
        failures--;
        throw new TransientProvisionerError('connect ECONNREFUSED 127.0.0.1:6385', { retryAfterMs: 200 });
      }
      return fixture.register(options);
    },
    inspect: (o) => fixture.inspect(o),
    prepare: (o) => fixture.prepare(o),
    service: (o) => fixture.service(o),
    provision: (o) => fixture.provision(o),
    adopt: (o) => fixture.adopt(o),
    deprovision: (o) => fixture.deprovision(o),
    powerOn: (o) => fixture.powerOn(o),
    powerOff: (o) => fixture.powerOff(o),
    hardwareState: (o) => fixture.hardwareState(o),
    firmwareSettings: (o) => fixture.firmwareSettings(o),
    firmwareComponents: (o) => fixture.firmwareComponents(o),
    dataImageStatus: (o) => fixture.dataImageStatus(o),
    attachDataImage: (o) => fixture.attachDataImage(o),
    detachDataImage: (o) => fixture.detachDataImage(o),
    addEventSubscription: (o) => fixture.addEventSubscription(o),
    removeEventSubscription: (o) => fixture.removeEventSubscription(o),
    health: (o) => fixture.health(o),
    bmcProblem: (o) => fixture.bmcProblem(o),
    firmwareRefreshes: () => fixture.firmwareRefreshes(),
    nodeDigests: () => fixture.nodeDigests(),
    lastNodeRead: () => fixture.lastNodeRead(),
    delete: (o) => fixture.delete(o),
    detach: (o) => fixture.detach(o),
  };
  return { provisioner, simulateOutage: (count) => (failures = count) };
}

/**
 * The operator as main.ts composes it, in process, against the stack's real API server,
 * with the shared fixture provisioner, watching only `namespace`, servers on free ports.
 */
export function startOperator(env: StackEnv, namespace: string): OperatorUnderTest {
  const settings = compileOperatorSettings({
    argv: [
      '--provisioner=fixture',
      `--watch-namespace=${namespace}`,
      '--metrics-bind-address=127.0.0.1:0',
      '--metrics-secure=false',
      '--health-probe-bind-address=127.0.0.1:0',
      '--graceful-shutdown-timeout=10s',
    ],
    env: {},
  });
  const manager = new Manager({
    name: 'baremetal-operator',
    options: settings,
    // The ServiceAccount deploy/ installs, so the test proves the operator's RBAC too.
    transport: new KubeClient(loadKubeConfig(controllerKubeconfig(env.stateDir, OPERATOR_IDENTITY))),
    registry: new Registry(),
    logger: testLogger(),
  });
  // The fixture's BMO-like delays (up to 10 s per step), shortened for a test.
  const fixture = new FixtureProvisioner({ delays: { registerMs: 200, inspectMs: 200, provisionMs: 200, adoptMs: 200, powerMs: 0, deleteMs: 0 } });
  const { provisioner, simulateOutage } = withOutages(fixture);
  setupBareMetalHostController(manager, {
    provisioner,
    settings: { maxProvisioningRetries: settings.maxProvisioningRetries, deletionTimeoutMs: settings.deletionTimeoutMs },
    provisioningLimit: settings.provisioningLimit,
    maxConcurrentReconciles: 4,
  });
  const abort = new AbortController();
  const running = manager.start(abort.signal);
  return {
    manager,
    fixture,
    simulateOutage,
    stop: async () => {
      abort.abort();
      await running;
    },
  };
}
