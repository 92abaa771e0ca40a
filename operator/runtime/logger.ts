import winston from 'winston';
import type { Writable } from 'node:stream';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export type LogMeta = Record<string, unknown>;

/**
 * The runtime's own logging contract; winston sits behind it (a winston Logger satisfies it
 * structurally), so a test or another host can plug in something else.
 */
export interface Logger {
  error(message: string, meta?: LogMeta): void;
  warn(message: string, meta?: LogMeta): void;
  info(message: string, meta?: LogMeta): void;
  debug(message: string, meta?: LogMeta): void;
  /** A logger that adds `meta` to every line, e.g. `{ controller }` or `{ reconcileID }`. */
  child(meta: LogMeta): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Added to every line, e.g. `{ component: 'baremetal-operator' }`. */
  defaultMeta?: LogMeta;
  /** Where JSON lines go; stdout by default. */
  stream?: Writable;
  silent?: boolean;
  /** `json` (default) or `console`: one human-readable line each, as zap's development logger (BMO's --dev). */
  format?: LogFormat;
}

export type LogFormat = 'json' | 'console';

/** Error properties are not enumerable, so a nested Error would log as `{}` (winston #1338). */
export function serializeError(error: Error): LogMeta {
  const out: LogMeta = { name: error.name, message: error.message, stack: error.stack };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.cause instanceof Error) out.cause = serializeError(error.cause);
  return out;
}

const serializeNestedErrors = winston.format((info) => {
  for (const [key, value] of Object.entries(info)) {
    if (value instanceof Error) (info as Record<string, unknown>)[key] = serializeError(value);
  }
  return info;
});

/** `<ISO time>\t<LEVEL>\t<message>\t<the rest as JSON>`, the shape of zap's console encoder. */
const consoleLine = winston.format.printf((info) => {
  const { level, message, timestamp, ts: _ts, ...rest } = info as Record<string, unknown>;
  const fields = Object.keys(rest).length > 0 ? `\t${JSON.stringify(rest)}` : '';
  return `${String(timestamp)}\t${String(level).toUpperCase()}\t${String(message)}${fields}`;
});

/** JSON lines with an ISO `ts` (or console lines), errors serialised with their stack. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  const common = [winston.format.errors({ stack: true }), serializeNestedErrors()];
  return winston.createLogger({
    level: options.level ?? 'info',
    silent: options.silent ?? false,
    defaultMeta: options.defaultMeta,
    format: options.format === 'console'
      ? winston.format.combine(...common, winston.format.timestamp(), consoleLine)
      : winston.format.combine(...common, winston.format.timestamp({ alias: 'ts' }), winston.format.json()),
    transports: [transport],
  });
}

/** Discards everything; for tests and for callers that do not care. */
export function silentLogger(): Logger {
  return createLogger({ silent: true });
}
