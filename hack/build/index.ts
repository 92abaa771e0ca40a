export { BUILD_DIR, RUNTIME_ENTRIES, buildRuntimeEntries, builtEntry, builtEntryPath, type RuntimeEntry } from './entries.ts';
export { buildRuntime, type BuildOptions, type BuildResult } from './bundle.ts';
