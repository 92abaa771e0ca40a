export { BUILD_DIR, RUNTIME_ENTRIES, buildRuntimeEntries, builtEntry, builtEntryPath, type RuntimeEntry } from './entries.ts';
export { buildRuntime, stripModule, type BuildOptions, type BuildResult } from './strip-build.ts';
