import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { BUILD_DIR, buildRuntime, builtEntry, type RuntimeEntry } from '../../../hack/build/index.ts';
import { renderKustomization } from '../../../hack/stack/kustomize.ts';
import { OPERATOR_NODE_FLAGS, OPERATOR_PROCESS_ENV } from '../../../operator/node-flags.ts';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { dockerIgnore, parseDockerfile, type Stage } from './dockerfile.ts';
import { runtimeImports } from './runtime-imports.ts';

// This machine has a docker CLI but no engine: the images are not built here. What a build
// would take is checked from the Dockerfiles themselves.
const IMAGES: { dockerfile: string; entry: RuntimeEntry; nodeFlags: readonly string[]; processEnv?: Readonly<Record<string, string>>; kustomization: string; image: string }[] = [
  { dockerfile: 'deploy/images/operator.Dockerfile', entry: 'operator/main.ts', nodeFlags: OPERATOR_NODE_FLAGS, processEnv: OPERATOR_PROCESS_ENV, kustomization: 'deploy/operator/default', image: 'localhost/metal3-ts/baremetal-operator' },
  { dockerfile: 'deploy/images/provider.Dockerfile', entry: 'capm3-provider/main.ts', nodeFlags: [], kustomization: 'deploy/capm3/default', image: 'localhost/metal3-ts/capm3-provider' },
  { dockerfile: 'deploy/images/ipam.Dockerfile', entry: 'capm3-provider/ipam/main.ts', nodeFlags: [], kustomization: 'deploy/ipam/default', image: 'localhost/metal3-ts/ipam' },
];

const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  type: string; dependencies: Record<string, string>; devDependencies: Record<string, string>;
};
const ignored = dockerIgnore(readFileSync(join(repoRoot, '.dockerignore'), 'utf8'));
const argumentsOf = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.arguments);
/** COPY sources and destinations of a stage, without --from copies. */
const contextCopies = (stage: Stage) => argumentsOf(stage, 'COPY').filter((copy) => !copy.startsWith('--from')).map((copy) => {
  const parts = copy.split(/\s+/);
  return { sources: parts.slice(0, -1), destination: parts.at(-1) as string };
});
const covers = (source: string, file: string) => (source.endsWith('/') ? file.startsWith(source) : file === source);

describe('container images (deploy/images/*.Dockerfile), checked without a docker engine', () => {
  it.each(IMAGES)('$dockerfile: pinned Node 24 base, the bundle alone at runtime, non-root', ({ dockerfile }) => {
    const { stages } = parseDockerfile(readFileSync(join(repoRoot, dockerfile), 'utf8'));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    // The release package.json pins as its node (a full version, never a floating tag).
    const nodeVersion = packageJson.devDependencies.node as string;
    for (const stage of stages) expect(stage.from).toMatch(new RegExp(`^docker\\.io/library/node:${nodeVersion.replace(/\./g, '\\.')}-[a-z0-9-]+$`));
    expect(nodeVersion).toMatch(/^24\.\d+\.\d+$/);
    const [dependencies, runtime] = [stages[0] as Stage, stages.at(-1) as Stage];
    // Dependencies from the lock file (npm ci, never npm install), without install scripts: esbuild's binary is an optional dependency.
    const installs = stages.flatMap((stage) => argumentsOf(stage, 'RUN')).filter((command) => /\bnpm\b/.test(command));
    expect(installs).toEqual([expect.stringMatching(/^npm ci --ignore-scripts\b/)]);
    expect(argumentsOf(dependencies, 'RUN')).toEqual(installs);
    expect(contextCopies(dependencies)).toEqual([{ sources: ['package.json', 'package-lock.json'], destination: './' }]);
    const build = stages.find((stage) => stage.name === 'build') as Stage;
    expect(argumentsOf(build, 'COPY').filter((copy) => copy.startsWith('--from'))).toEqual([`--from=${dependencies.name} /app/node_modules ./node_modules`]);
    expect(argumentsOf(runtime, 'RUN')).toEqual([]);
    // The runtime stage takes nothing from the context but package.json, and no node_modules: the bundle holds the packages it uses.
    expect(argumentsOf(runtime, 'COPY').filter((copy) => copy.startsWith('--from'))).toEqual(['--from=build /app/dist ./dist']);
    expect(contextCopies(runtime)).toEqual([{ sources: ['package.json'], destination: './' }]);
    // Non-root by number (runAsNonRoot can only verify a numeric user), the uid deploy/ runs as.
    const users = argumentsOf(runtime, 'USER');
    expect(users).toEqual(['65532:65532']);
    expect(runtime.instructions.at(-1)?.keyword).toBe('ENTRYPOINT');
    expect(runtime.instructions.findIndex((instruction) => instruction.keyword === 'USER'))
      .toBeGreaterThan(runtime.instructions.findLastIndex((instruction) => instruction.keyword === 'COPY'));
  });

  it.each(IMAGES)('$dockerfile: every file $entry imports is copied to the build stage and not ignored, and the stage bundles them; every package it imports is a production dependency', async ({ dockerfile, entry, nodeFlags, processEnv }) => {
    const { stages } = parseDockerfile(readFileSync(join(repoRoot, dockerfile), 'utf8'));
    const runtime = stages.at(-1) as Stage;
    expect(JSON.parse(argumentsOf(runtime, 'ENTRYPOINT')[0] as string)).toEqual(['node', '--disable-warning=ExperimentalWarning', ...nodeFlags, builtEntry(entry)]);
    expect(argumentsOf(runtime, 'ENV')).toEqual(expect.arrayContaining(Object.entries(processEnv ?? {}).map(([name, value]) => `${name}=${value}`)));
    const build = stages.find((stage) => stage.name === 'build') as Stage;
    expect(argumentsOf(build, 'RUN')).toEqual([`node --disable-warning=ExperimentalWarning hack/build/cli.ts ${entry}`]);
    const copies = contextCopies(build);
    for (const copy of copies) expect(copy.sources).toEqual([copy.destination === './' ? 'package.json' : copy.destination]);
    const sources = copies.flatMap((copy) => copy.sources);
    // "type": "module" in package.json is what makes Node load the .ts files as ES modules.
    expect(sources).toContain('package.json');
    expect(packageJson.type).toBe('module');
    const { files, packages } = runtimeImports(repoRoot, entry);
    expect(files).toContain(entry);
    expect(files.length).toBeGreaterThan(20);
    // The build tool's one package, esbuild, comes with the dependencies stage's node_modules.
    const buildTool = runtimeImports(repoRoot, 'hack/build/cli.ts');
    expect(buildTool.packages).toEqual(['esbuild']);
    expect(packageJson.devDependencies).toHaveProperty('esbuild');
    const missing = [...files, ...buildTool.files].filter((file) => !sources.some((source) => covers(source, file)) || ignored(file) || !existsSync(join(repoRoot, file)));
    expect(missing).toEqual([]);
    // Nothing test-only rides along in what is copied: the ignore file drops the tests.
    expect(ignored('operator/runtime/manager.test.ts') && ignored('operator/runtime/testing/harness.ts') && ignored('node_modules/x')).toBe(true);
    expect(ignored('hack/build/bundle.test.ts') && ignored('hack/stack/paths.ts') && ignored('dist/operator/main.js')).toBe(true);
    // The build stage, played here: only what it copies and the dependencies stage's node_modules,
    // then its RUN; the entry's bundle comes out, made from those files alone.
    const context = mkdtempSync(join(tmpdir(), 'image-build-'));
    try {
      for (const source of sources) {
        cpSync(join(repoRoot, source), join(context, source), { recursive: true, filter: (path) => !ignored(relative(repoRoot, path)) });
      }
      symlinkSync(join(repoRoot, 'node_modules'), join(context, 'node_modules'));
      const built = await buildRuntime({ root: context, entries: [entry], outDir: BUILD_DIR });
      expect(built.sources).toEqual(files);
      expect(built.packages).toContain('zod');
      expect(existsSync(join(context, builtEntry(entry)))).toBe(true);
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
    expect(packages.filter((name) => !(name in packageJson.dependencies))).toEqual([]);
    expect(packages).toContain('zod');
    // The runtime talks to the API server with its own client: client-node's index loads every API group (~48 MiB).
    expect(packages).not.toContain('@kubernetes/client-node');
  });

  it.each(IMAGES)('$kustomization runs the image $image builds', async ({ kustomization, image }) => {
    const objects = await renderKustomization({ kubectl: readStackEnv().kubectl, directory: kustomization });
    const deployment = objects.find((object) => object.kind === 'Deployment') as unknown as {
      spec: { template: { spec: { containers: { image: string; command?: string[] }[] } } };
    };
    const [container] = deployment.spec.template.spec.containers;
    expect(container?.image).toBe(`${image}:dev`);
    // The image's ENTRYPOINT is the process: no command override.
    expect(container?.command).toBeUndefined();
  });
});
