// Builds the processes' JavaScript from our TypeScript with Node's own type stripper: what Node
// would run from the .ts files, written ahead of time. Running the .ts files directly costs each
// process ~30 MiB of RSS and ~0.4 s of CPU at start (the stripper is a WebAssembly module whose
// memory is never given back; test/bench/README.md, "Where the memory goes").
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface BuildOptions {
  /** Repository root: entries and the output directory are relative to it. */
  root: string;
  /** Entry points, e.g. `operator/main.ts`; every file they import (at runtime) is built. */
  entries: readonly string[];
  /** Output directory (relative to root): `<outDir>/operator/main.js` for `operator/main.ts`. */
  outDir: string;
}

export interface BuildResult {
  /** Repository-relative paths of the sources built, sorted. */
  sources: string[];
  /** How many output files changed (the others were already up to date). */
  written: number;
}

// Relative specifiers that survive stripping (type-only imports are blanked out by it): static
// imports and re-exports at the start of a line, side-effect imports and dynamic imports.
const STATIC_IMPORT = /^(\s*(?:import|export)\b[^;'"]*?\bfrom\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/gm;
const SIDE_EFFECT_IMPORT = /^(\s*import\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/gm;
const DYNAMIC_IMPORT = /(\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;

/** The JavaScript for one TypeScript source, and the relative specifiers it imports at runtime. */
export function stripModule(source: string, sourcePath: string): { code: string; specifiers: string[] } {
  const stripped = stripTypeScriptTypes(source, { mode: 'strip', sourceUrl: sourcePath });
  const specifiers: string[] = [];
  const rewrite = (_match: string, head: string, quote: string, specifier: string): string => {
    if (!specifier.endsWith('.ts')) throw new Error(`${sourcePath}: relative import '${specifier}' does not name a .ts file`);
    specifiers.push(specifier);
    return `${head}${quote}${specifier.slice(0, -'.ts'.length)}.js${quote}`;
  };
  const code = stripped.replace(STATIC_IMPORT, rewrite).replace(SIDE_EFFECT_IMPORT, rewrite).replace(DYNAMIC_IMPORT, rewrite);
  return { code, specifiers };
}

/** Writes a file only when its content changes, by rename, so a process starting meanwhile never reads half of it. */
function writeIfChanged(path: string, content: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, path);
  return true;
}

/** Builds every file the entries load at runtime into outDir, keeping the repository's layout. */
export function buildRuntime(options: BuildOptions): BuildResult {
  const root = resolve(options.root);
  const outRoot = resolve(root, options.outDir);
  const built = new Set<string>();
  let written = 0;
  const pending = options.entries.map((entry) => resolve(root, entry));
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const name = relative(root, path);
    if (built.has(name)) continue;
    if (name.startsWith(`..${sep}`) || !existsSync(path)) throw new Error(`build: ${name} is imported but is not a file in the repository`);
    built.add(name);
    const { code, specifiers } = stripModule(readFileSync(path, 'utf8'), name);
    if (writeIfChanged(join(outRoot, name.replace(/\.ts$/, '.js')), code)) written++;
    for (const specifier of specifiers) pending.push(resolve(dirname(path), specifier));
  }
  return { sources: [...built].sort(), written };
}
