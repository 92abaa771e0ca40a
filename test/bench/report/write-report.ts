import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown } from './markdown.ts';
import type { BenchReport } from './types.ts';

/** `<dir>/<mode>-n<N>-<UTC timestamp>.json` and `.md`; returns both paths. */
export function writeReport(report: BenchReport, dir: string): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const base = join(dir, `${report.settings.mode}-n${report.settings.hosts}-${stamp}`);
  const paths = { json: `${base}.json`, markdown: `${base}.md` };
  writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(paths.markdown, renderMarkdown(report));
  return paths;
}
