import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface RuntimeImports {
  /** Repository-relative paths of every source file Node loads, the entry point included. */
  files: string[];
  /** Package names imported (not node: builtins). */
  packages: string[];
}

const BUILTINS = new Set(builtinModules);

/** The specifiers of a file's imports that survive type stripping (type-only ones are erased). */
function runtimeSpecifiers(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes = !node.importClause?.name && bindings !== undefined && ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const onlyTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** Walks the import graph Node follows from an entry point (relative to root). */
export function runtimeImports(root: string, entry: string): RuntimeImports {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [resolve(root, entry)];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const name = relative(root, path);
    if (files.has(name)) continue;
    files.add(name);
    for (const specifier of runtimeSpecifiers(path)) {
      if (specifier.startsWith('.')) pending.push(join(dirname(path), specifier));
      else if (!specifier.startsWith('node:') && !BUILTINS.has(specifier)) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}
