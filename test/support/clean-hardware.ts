import { beforeAll } from '@jest/globals';
import { releaseAllServers } from './release-systems.ts';
import { readStackEnv } from './stack-env.ts';
import { SIDE_BY_SIDE_ENV } from './side-by-side.ts';

// Every integration and e2e file starts with the emulated servers free in Ironic: a file
// that failed or was interrupted must not leave nodes whose ports block the next one. When
// files run side by side, the runner frees them all before the run instead: here it would
// delete the nodes of files already running.
beforeAll(async () => {
  if (process.env[SIDE_BY_SIDE_ENV] === '1') return;
  await releaseAllServers(readStackEnv());
}, 120_000);
