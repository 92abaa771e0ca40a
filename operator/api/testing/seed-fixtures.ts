import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** Manifests taken from the research seeds; see the comment at the top of each file. */
export const SEED_FIXTURE_DIR = fileURLToPath(new URL('../../../test/fixtures/seeds/', import.meta.url));

export interface SeedDocument {
  file: string;
  document: { apiVersion?: string; kind?: string; [key: string]: unknown };
}

export function seedFixtureFiles(): string[] {
  return readdirSync(SEED_FIXTURE_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .sort();
}

export function seedDocuments(): SeedDocument[] {
  return seedFixtureFiles().flatMap((file) =>
    parseAllDocuments(readFileSync(join(SEED_FIXTURE_DIR, file), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return { file, document: doc.toJS() as SeedDocument['document'] };
    }),
  );
}

export function seedDocumentsOfKind(kind: string): SeedDocument[] {
  return seedDocuments().filter(({ document }) => document.kind === kind);
}
