// Test helpers for code built on the runtime: a manual clock. Anything that depends on
// Kubernetes API semantics is tested against the real API server (test/integration/).
export { FakeClock, flushPromises } from './fake-clock.ts';
