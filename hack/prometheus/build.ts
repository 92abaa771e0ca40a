import { join } from 'node:path';
import { z } from 'zod';
import { run } from '../stack/commands.ts';
import { repoRoot } from '../stack/paths.ts';

const buildOutput = z.object({ PROMTOOL: z.string().min(1) });

/** Builds (or reuses from the cache) promtool of the pinned Prometheus release; returns its path. */
export async function buildPromtool(): Promise<string> {
  const out = await run('bash', [join(repoRoot, 'hack', 'prometheus', 'build.sh')], { component: 'promtool build' });
  const fields = Object.fromEntries(out.split('\n').map((line) => line.split(/=(.*)/s, 2)).filter((pair) => pair.length === 2));
  return buildOutput.parse(fields).PROMTOOL;
}
