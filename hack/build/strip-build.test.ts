import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { buildRuntime, stripModule } from './strip-build.ts';

describe('stripModule', () => {
  it('blanks types in place (same lines and columns) and points relative imports at the .js files', () => {
    const source = [
      "import { a, type B } from './a.ts';",
      "import type { C } from '../c.ts';",
      "export { d } from './d/index.ts';",
      "import './side-effect.ts';",
      'import {',
      '  e,',
      "} from '../e.ts';",
      "import { z } from 'zod';",
      'export const f = async (x: B): Promise<C> => (await import(\'./lazy.ts\')).g(x as C, a, e, z);',
    ].join('\n');
    const { code, specifiers } = stripModule(source, 'x/m.ts');
    const lines = code.split('\n');
    // Stack traces name the source file, at the same line and column.
    expect(lines.slice(9)).toEqual(['', '//# sourceURL=x/m.ts']);
    expect(lines[0]).toMatch(/^import \{ a,\s+\} from '\.\/a\.js';$/);
    expect(lines[1]?.trim()).toBe('');
    expect(lines[2]).toBe("export { d } from './d/index.js';");
    expect(lines[3]).toBe("import './side-effect.js';");
    expect(lines[6]).toBe("} from '../e.js';");
    expect(lines[7]).toBe("import { z } from 'zod';");
    expect(lines[8]).toContain("import('./lazy.js')");
    expect(lines[8]).not.toMatch(/: B|Promise<C>|as C/);
    expect(lines[8]?.indexOf('=>')).toBe(source.split('\n')[8]?.indexOf('=>'));
    // The type-only import is not followed: nothing of it is left to load.
    expect(specifiers.sort()).toEqual(['../e.ts', './a.ts', './d/index.ts', './lazy.ts', './side-effect.ts']);
  });

  it('refuses a relative import that names no .ts file, with the file and the specifier', () => {
    expect(() => stripModule("import { a } from './a.js';", 'x/m.ts')).toThrow("x/m.ts: relative import './a.js' does not name a .ts file");
  });

  it('refuses syntax type stripping cannot erase', () => {
    expect(() => stripModule('enum Colour { Red }', 'x/m.ts')).toThrow();
  });
});

describe('buildRuntime', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'strip-build-'));
    write('app/main.ts', "import { helper } from './lib/helper.ts';\nimport type { T } from './lib/types.ts';\nconst value: T = helper();\nconsole.log(value);\n");
    write('app/lib/helper.ts', "export const helper = (): number => 42;\n");
    write('app/lib/types.ts', 'export type T = number;\n');
    write('app/lib/unused.ts', 'export const unused = 1;\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes what the entries load at runtime, in the same layout, and nothing else', () => {
    const result = buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' });
    expect(result).toEqual({ sources: ['app/lib/helper.ts', 'app/main.ts'], written: 2 });
    expect(readFileSync(join(root, 'out/app/main.js'), 'utf8')).toContain("from './lib/helper.js'");
    expect(readFileSync(join(root, 'out/app/lib/helper.js'), 'utf8')).toMatch(/export const helper = \(\)\s+=> 42;/);
    expect(() => statSync(join(root, 'out/app/lib/types.js'))).toThrow();
    expect(() => statSync(join(root, 'out/app/lib/unused.js'))).toThrow();
  });

  it('rewrites only what changed', () => {
    buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' });
    const before = statSync(join(root, 'out/app/main.js')).mtimeMs;
    expect(buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' }).written).toBe(0);
    write('app/lib/helper.ts', "export const helper = (): number => 43;\n");
    expect(buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' }).written).toBe(1);
    expect(statSync(join(root, 'out/app/main.js')).mtimeMs).toBe(before);
    expect(readFileSync(join(root, 'out/app/lib/helper.js'), 'utf8')).toContain('43');
  });

  it('names a missing import instead of writing a build that cannot start', () => {
    write('app/main.ts', "import { gone } from './gone.ts';\nconsole.log(gone);\n");
    expect(() => buildRuntime({ root, entries: ['app/main.ts'], outDir: 'out' })).toThrow('build: app/gone.ts is imported but is not a file in the repository');
  });
});
