// Test helpers for code built on the runtime: an in-memory API server and a manual clock.
export { FakeApiServer } from './fake-api-server.ts';
export { FakeClock, flushPromises } from './fake-clock.ts';
export { JsonPatchError, applyJsonPatch, applyMergePatch } from './patches.ts';
