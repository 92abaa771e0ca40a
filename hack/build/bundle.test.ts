import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { buildRuntime } from './bundle.ts';

describe('buildRuntime', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const run = (path: string) => execFileSync(process.execPath, [join(root, path)], { encoding: 'utf8' });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bundle-'));
    write('package.json', '{ "type": "module" }\n');
    write('app/main.ts', [
      "import { helper } from './lib/helper.ts';",
      "import type { T } from './lib/types.ts';",
      "import { hostname } from 'cjs-package';",
      'const value: T = helper();',
      'if (import.meta.main) console.log(value, typeof hostname());',
    ].join('\n'));
    write('app/lib/helper.ts', 'export const helper = (): number => 42;\n');
    write('app/lib/types.ts', 'export type T = number;\n');
    write('app/lib/unused.ts', 'export const unused = 1;\n');
    // A CommonJS package that requires one of Node's built-ins, as winston's and axios's dependencies do.
    write('node_modules/cjs-package/package.json', '{ "name": "cjs-package", "main": "index.js" }\n');
    write('node_modules/cjs-package/index.js', "const os = require('node:os');\nexports.hostname = () => os.hostname();\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes one file per entry that runs on its own, naming the sources and packages in it', async () => {
    const result = await buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' });
    expect(result).toEqual({ sources: ['app/lib/helper.ts', 'app/main.ts'], packages: ['cjs-package'], written: 2 });
    rmSync(join(root, 'node_modules'), { recursive: true });
    expect(run('out/app/main.js')).toBe('42 string\n');
    expect(readFileSync(join(root, 'out/app/main.js'), 'utf8')).toContain('//# sourceMappingURL=main.js.map');
    expect(JSON.parse(readFileSync(join(root, 'out/app/main.js.map'), 'utf8'))).toMatchObject({ sources: expect.arrayContaining(['../../app/lib/helper.ts']) });
    expect(() => statSync(join(root, 'out/app/lib/helper.js'))).toThrow();
  });

  it('reaches built-ins through require(), so Node never builds their namespaces (http\'s would load undici)', async () => {
    write('app/server.ts', [
      "import { createServer } from 'node:http';",
      "import * as fs from 'node:fs';",
      "console.log(typeof createServer, typeof fs.readFileSync, process.moduleLoadList.some((name) => name.includes('undici')));",
    ].join('\n'));
    const result = await buildRuntime({ root, entries: ['app/server.ts'], outDir: 'out' });
    expect(result.packages).toEqual([]);
    expect(run('out/app/server.js')).toBe('function function false\n');
  });

  it('rewrites only what changed', async () => {
    await buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' });
    expect((await buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).written).toBe(0);
    write('app/lib/helper.ts', 'export const helper = (): number => 43;\n');
    expect((await buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).written).toBe(1);
    expect(run('out/app/main.js')).toBe('43 string\n');
  });

  it('names a missing import instead of writing a build that cannot start', async () => {
    write('app/main.ts', "import { gone } from './gone.ts';\nconsole.log(gone);\n");
    await expect(buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).rejects.toThrow(/app\/main\.ts:1:\d+: ERROR: Could not resolve "\.\/gone\.ts"/);
    await expect(buildRuntime({ root, entries: ['app/absent.ts'], outDir: 'out' })).rejects.toThrow('build: no such entry point: app/absent.ts');
  });

  it('refuses a character outside ASCII in the bundle, which V8 would hold as two-byte text, and names where it is', async () => {
    write('app/lib/helper.ts', 'export const helper = (): number => (/\u00b5s/.test(process.argv[2] ?? "") ? 1 : 42);\n');
    await expect(buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).rejects.toThrow(/build: out\/app\/main\.js has a character outside ASCII, near ".*\/\u00b5s\/.*": write it as an escape/);
    expect(() => statSync(join(root, 'out/app/main.js'))).toThrow();
    write('app/lib/helper.ts', 'export const helper = (): number => (/\\u00b5s/.test(process.argv[2] ?? "") ? 1 : 42);\n');
    await buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' });
    expect(run('out/app/main.js')).toBe('42 string\n');
  });

  it("refuses a module other than the entry that reads import.meta: in a bundle it would get the entry point's", async () => {
    write('app/lib/helper.ts', 'export const helper = (): number => (import.meta.main ? 1 : 0);\n');
    await expect(buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).rejects.toThrow('build: app/lib/helper.ts read import.meta, which a bundle gives the entry point\'s value');
    expect(() => statSync(join(root, 'out/app/main.js'))).toThrow();
  });
});
