/** One instruction of a Dockerfile, continuation lines joined. */
export interface Instruction { keyword: string; arguments: string }

export interface Stage { from: string; name?: string; instructions: Instruction[] }

export interface Dockerfile { args: Record<string, string>; stages: Stage[] }

/** Parses the instructions of a Dockerfile into its global ARGs and its stages. */
export function parseDockerfile(text: string): Dockerfile {
  const joined = text.split('\n').filter((line) => !line.trimStart().startsWith('#')).join('\n').replace(/\\\n/g, ' ');
  const instructions = joined.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), arguments: rest.join(' ') };
  });
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.arguments.split(/\s+/);
      stages.push({ from: image.replace(/^\$\{?(\w+)\}?$/, (_, arg: string) => args[arg] ?? image), ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [key = '', value = ''] = instruction.arguments.split(/=(.*)/s, 2);
      args[key] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/**
 * A .dockerignore's patterns as one predicate on repository-relative paths (a directory excludes
 * what is under it; a `!pattern` takes back what earlier lines excluded; the last match wins).
 */
export function dockerIgnore(text: string): (path: string) => boolean {
  const rules = text.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#')).map((line) => {
    const include = line.startsWith('!');
    const source = line.replace(/^!/, '').replace(/\/$/, '').split('/').map((part) =>
      part === '**' ? '(?:.*/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}/`).join('');
    return { include, pattern: new RegExp(`^${source.replace(/\/$/, '')}(?:/|$)`) };
  });
  return (path) => rules.reduce((ignored, rule) => (rule.pattern.test(path) ? !rule.include : ignored), false);
}
