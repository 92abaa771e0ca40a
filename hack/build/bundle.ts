// Builds each process into one JavaScript file (esbuild): our TypeScript and the packages it
// imports, with what no code path reaches left out and whitespace dropped. Node then compiles one
// module instead of ~800 and keeps less source and bytecode: an idle operator 86 → 72 MiB RSS
// (test/bench/README.md, "One file per process"). Names are kept, so stack traces name our
// functions; a linked source map (`node --enable-source-maps`) turns their positions into .ts lines.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { build, type Metafile, type OutputFile, type Plugin } from 'esbuild';

export interface BuildOptions {
  /** Repository root: entries and the output directory are relative to it; packages come from its node_modules. */
  root: string;
  /** Entry points, e.g. `operator/main.ts`: one bundle each. */
  entries: readonly string[];
  /** Output directory (relative to root): `<outDir>/operator/main.js` for `operator/main.ts`. */
  outDir: string;
}

export interface BuildResult {
  /** Repository-relative paths of our sources in the bundles, sorted. */
  sources: string[];
  /** The packages the bundles took code from, sorted. */
  packages: string[];
  /** How many output files changed (the others were already up to date). */
  written: number;
}

// Bundled CommonJS packages call require() for Node's built-ins; an ES module has none of its own.
const REQUIRE_FOR_BUNDLED_PACKAGES = "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);";

/**
 * Node's built-ins reached through require(), even where the code imports them. For an import,
 * Node builds the module's namespace by reading every export, lazy getters included:
 * `import … from 'node:http'` loads undici for http's WebSocket getter. 3–4 MiB of RSS.
 */
const BUILTIN_NAMESPACE = 'node-builtin-through-require';
const builtinsThroughRequire: Plugin = {
  name: 'builtins-through-require',
  setup(builder) {
    builder.onResolve({ filter: /^[a-z][a-z0-9_:/]*$/ }, (args) =>
      args.kind === 'import-statement' && isBuiltin(args.path) ? { path: args.path, namespace: BUILTIN_NAMESPACE } : undefined);
    builder.onLoad({ filter: /.*/, namespace: BUILTIN_NAMESPACE }, (args) =>
      ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const PACKAGE_IN_PATH = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//;

/** Writes a file only when its content changes, by rename, so a process starting meanwhile never reads half of it. */
function writeIfChanged(path: string, content: Uint8Array): boolean {
  if (existsSync(path) && Buffer.compare(readFileSync(path), content) === 0) return false;
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, path);
  return true;
}

/**
 * In a bundle every module shares the entry's `import.meta`: only the entry may read it (its
 * `import.meta.main` check), or a library module would take the bundle's URL for its own.
 */
function refuseImportMetaOutsideEntries(root: string, entries: readonly string[], sources: readonly string[]): void {
  const readers = sources.filter((source) => !entries.includes(source) && readFileSync(resolve(root, source), 'utf8').includes('import.meta'));
  if (readers.length > 0) throw new Error(`build: ${readers.join(', ')} read import.meta, which a bundle gives the entry point's value`);
}

/**
 * V8 keeps a script with even one character outside ASCII as two-byte text, twice the memory for
 * the whole bundle. esbuild escapes such characters in strings but not in regular expressions.
 */
function refuseNonAscii(root: string, file: OutputFile): void {
  const at = file.contents.findIndex((byte) => byte > 0x7f);
  if (at < 0) return;
  const near = Buffer.from(file.contents.subarray(Math.max(0, at - 40), at + 20)).toString('utf8');
  throw new Error(`build: ${relative(root, file.path)} has a character outside ASCII, near ${JSON.stringify(near)}: write it as an escape (\\u…), or V8 holds the whole bundle as two-byte text`);
}

function inputsOf(metafile: Metafile): { sources: string[]; packages: string[] } {
  const sources = new Set<string>();
  const packages = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.startsWith(`${BUILTIN_NAMESPACE}:`)) continue;
    const packageName = PACKAGE_IN_PATH.exec(input)?.[1];
    if (packageName !== undefined) packages.add(packageName);
    else sources.add(input);
  }
  return { sources: [...sources].sort(), packages: [...packages].sort() };
}

/** Bundles each entry into outDir, keeping the repository's layout for the entry's own path. */
export async function buildRuntime(options: BuildOptions): Promise<BuildResult> {
  const root = resolve(options.root);
  const missing = options.entries.filter((entry) => !existsSync(resolve(root, entry)));
  if (missing.length > 0) throw new Error(`build: no such entry point: ${missing.join(', ')}`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [...options.entries],
    outdir: options.outDir,
    outbase: '.',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    sourcesContent: false,
    banner: { js: REQUIRE_FOR_BUNDLED_PACKAGES },
    metafile: true,
    plugins: [builtinsThroughRequire],
    write: false,
    logLevel: 'silent',
  });
  const { sources, packages } = inputsOf(result.metafile);
  refuseImportMetaOutsideEntries(root, options.entries, sources);
  for (const file of result.outputFiles) {
    if (relative(root, file.path).startsWith(`..${sep}`)) throw new Error(`build: ${file.path} is outside ${root}`);
    if (file.path.endsWith('.js')) refuseNonAscii(root, file);
  }
  let written = 0;
  for (const file of result.outputFiles) if (writeIfChanged(file.path, file.contents)) written++;
  return { sources, packages, written };
}
