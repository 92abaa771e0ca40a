// Three projects: unit tests live beside the code and touch no network;
// integration and e2e tests run against the real local stack (hack/stack).
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
  ],
};
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Stack state is not the project's code: etcd writes `.snap` files there, which jest would
  // report as obsolete snapshots and fail the run for.
  modulePathIgnorePatterns: ['<rootDir>/\\.stack[^/]*/'],
};
const sources = ['operator', 'ironic-client', 'capm3-provider', 'hack'];

export default {
  // Jest 30 reads the timeout only at the root; integration and e2e tests wait on real servers.
  testTimeout: 180_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      // test/bench's own report and metrics code is unit-tested too; the benchmark itself is not a test.
      testMatch: [...sources.map((dir) => `<rootDir>/${dir}/**/*.test.ts`), '<rootDir>/test/bench/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/clean-hardware.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/clean-hardware.ts'],
    },
  ],
};
