import { beforeAll } from '@jest/globals';
import { releaseMacAddresses } from './release-systems.ts';
import { readStackEnv } from './stack-env.ts';

// Every integration and e2e file starts with the emulated servers free in Ironic: a file
// that failed or was interrupted must not leave nodes whose ports block the next one.
beforeAll(async () => {
  const env = readStackEnv();
  await releaseMacAddresses(env, [...env.systems.flatMap((system) => system.macs), env.ipmiBmc.bootMacAddress]);
}, 120_000);
