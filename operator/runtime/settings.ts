import { z } from 'zod';
import { parseDuration } from './duration.ts';

/** One setting, readable from an environment variable and a command-line flag (the flag wins). */
export interface SettingSpec<T> {
  env: string;
  /** e.g. `--metrics-bind-address`. */
  flag: string;
  description: string;
  /** Raw text used when neither is given; it goes through the same schema as given values. */
  default?: string;
  /** Parses the raw text (or `undefined` when unset and without default). */
  schema: z.ZodType<T, string | undefined>;
  /** A flag that may appear without a value (`--leader-elect` means true). */
  isBoolean?: boolean;
  /** Older names still read: flags and variables this program had before taking upstream's names. */
  aliases?: { flags?: readonly string[]; env?: readonly string[] };
}

export type SettingsSpec = Record<string, SettingSpec<unknown>>;

export type CompiledSettings<S extends SettingsSpec> = {
  readonly [K in keyof S]: S[K] extends SettingSpec<infer T> ? T : never;
};

export interface SettingsSource {
  env?: Record<string, string | undefined>;
  /** Arguments after the script name. */
  argv?: readonly string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];
  /** Set when the problem is that `--help` was asked for; the message is the usage text. */
  readonly helpRequested: boolean;

  constructor(problems: string[], options: { helpRequested?: boolean } = {}) {
    super(problems.join('\n'));
    this.problems = problems;
    this.helpRequested = options.helpRequested ?? false;
  }
}

/** Usage text, one line per setting. */
export function describeSettings(spec: SettingsSpec): string {
  return Object.values(spec)
    .map((s) => {
      const aliases = [...(s.aliases?.flags ?? []), ...(s.aliases?.env ?? [])];
      const also = aliases.length > 0 ? `\n      (also ${aliases.join(', ')})` : '';
      return `  ${s.flag} / ${s.env}${s.default !== undefined ? ` (default ${JSON.stringify(s.default)})` : ''}\n      ${s.description}${also}`;
    })
    .join('\n');
}

function parseArgv(spec: SettingsSpec, argv: readonly string[]): { values: Map<string, string>; problems: string[] } {
  const byFlag = new Map(Object.values(spec).flatMap((s) => [s.flag, ...(s.aliases?.flags ?? [])].map((flag) => [flag, s] as const)));
  const values = new Map<string, string>();
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    // Go's flag packages take -name as --name (BMO's and CAPM3's -v=4, -namespace=...).
    const given = argv[i] as string;
    const arg = /^-[^-]/.test(given) ? `-${given}` : given;
    if (!arg.startsWith('--')) {
      problems.push(`unexpected argument ${JSON.stringify(arg)}`);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const setting = byFlag.get(flag);
    if (!setting) {
      problems.push(`unknown flag ${flag} (see --help)`);
      continue;
    }
    // Stored under the setting's own flag, so an alias and the current name are one setting.
    if (eq >= 0) values.set(setting.flag, arg.slice(eq + 1));
    else if (setting.isBoolean) values.set(setting.flag, 'true');
    else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) values.set(setting.flag, argv[++i] as string);
    else problems.push(`flag ${flag} needs a value`);
  }
  return { values, problems };
}

/**
 * Reads every setting once, at start-up, into a fully defaulted, typed object. All bad
 * settings are reported together, each naming its variable and flag:
 * `invalid setting METRICS_BIND_ADDRESS (--metrics-bind-address): ...`.
 */
export function compileSettings<S extends SettingsSpec>(spec: S, source: SettingsSource = {}): CompiledSettings<S> {
  const argv = source.argv ?? [];
  if (argv.includes('--help') || argv.includes('-h')) {
    throw new ConfigError([`Settings (flags override environment variables):\n${describeSettings(spec)}`], { helpRequested: true });
  }
  const env = source.env ?? {};
  const { values: flags, problems } = parseArgv(spec, argv);
  const compiled: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(spec)) {
    const fromEnv = [setting.env, ...(setting.aliases?.env ?? [])].map((name) => env[name]).find((value) => value !== undefined && value !== '');
    const raw = flags.get(setting.flag) ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined) ?? setting.default;
    const parsed = setting.schema.safeParse(raw);
    if (parsed.success) compiled[key] = parsed.data;
    else {
      const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
      problems.push(`invalid setting ${setting.env} (${setting.flag}): ${reason}${raw !== undefined ? ` (got ${JSON.stringify(raw)})` : ''}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return compiled as CompiledSettings<S>;
}

/** Schema builders for the common kinds of setting. */
export const settingSchemas = {
  string: () => z.string({ error: 'required' }).min(1, { error: 'must not be empty' }),
  optionalString: () => z.string().optional(),
  /**
   * true or false, in any case. BMO reads its switches as "equals true", so `1` or `yes` mean
   * false there: refused here rather than read the other way (IRONIC_INSECURE=1 must not turn
   * TLS verification off where BMO keeps it on).
   */
  boolean: () =>
    z
      .string({ error: 'required' })
      .transform((value, ctx) => {
        const normalised = value.toLowerCase();
        if (normalised === 'true') return true;
        if (normalised === 'false') return false;
        ctx.issues.push({ code: 'custom', message: 'expected true or false (BMO reads any other value as false)', input: value });
        return z.NEVER;
      }),
  /** Milliseconds, from Go-style durations (`15s`, `1m30s`). */
  duration: (options: { min?: number } = {}) =>
    z.string({ error: 'required' }).transform((value, ctx) => {
      try {
        const ms = parseDuration(value);
        if (options.min !== undefined && ms < options.min) {
          ctx.issues.push({ code: 'custom', message: `must be at least ${options.min} ms`, input: value });
          return z.NEVER;
        }
        return ms;
      } catch (error) {
        ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return z.NEVER;
      }
    }),
  /** Milliseconds, from whole seconds (`15`, BMO's `*_SECONDS` variables) or a Go-style duration (`15s`). */
  secondsOrDuration: (options: { min?: number } = {}) =>
    z.string({ error: 'required' }).transform((value, ctx) => {
      const text = /^\d+$/.test(value.trim()) ? `${value.trim()}s` : value;
      const parsed = settingSchemas.duration(options).safeParse(text);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.issues.push({ code: 'custom', message: issue.message, input: value });
      return z.NEVER;
    }),
  integer: (options: { min?: number; max?: number } = {}) =>
    z.string({ error: 'required' }).transform((value, ctx) => {
      const n = Number(value);
      if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
        ctx.issues.push({ code: 'custom', message: 'expected an integer', input: value });
        return z.NEVER;
      }
      if ((options.min !== undefined && n < options.min) || (options.max !== undefined && n > options.max)) {
        ctx.issues.push({ code: 'custom', message: `must be between ${options.min ?? '-∞'} and ${options.max ?? '∞'}`, input: value });
        return z.NEVER;
      }
      return n;
    }),
  /** A number above zero (Go's float flags, e.g. client-go's QPS). */
  positiveNumber: () =>
    z.string({ error: 'required' }).transform((value, ctx) => {
      const n = Number(value.trim());
      if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
        ctx.issues.push({ code: 'custom', message: 'expected a number above 0', input: value });
        return z.NEVER;
      }
      return n;
    }),
  oneOf: <const T extends readonly [string, ...string[]]>(choices: T) => z.enum(choices, { error: `expected one of ${choices.join(', ')}` }),
  /** Optional text through `translate` (e.g. Go TLS names to OpenSSL's); unset or blank is undefined, a throw is the problem. */
  optionalTranslated: <T>(translate: (text: string) => T) =>
    z.string().optional().transform((value, ctx): T | undefined => {
      if (value === undefined || value.trim() === '') return undefined;
      try {
        return translate(value);
      } catch (error) {
        ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
        return z.NEVER;
      }
    }),
};
