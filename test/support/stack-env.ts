import { readFileSync } from 'node:fs';
import { envJsonFile, stackEnvSchema, type StackEnv } from '../../hack/stack/state.ts';
import { testStackDir } from './test-stack-dir.ts';

export type { StackEnv };

/** Endpoints, credentials and emulated systems of the stack jest's global setup started. */
export function readStackEnv(): StackEnv {
  return stackEnvSchema.parse(JSON.parse(readFileSync(envJsonFile(testStackDir()), 'utf8')));
}
