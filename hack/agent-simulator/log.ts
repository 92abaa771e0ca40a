import winston from 'winston';

export type Logger = winston.Logger;

/** JSON lines on stdout, one per event, so tests and humans can grep what the simulated hardware did. */
export function createLogger(level = process.env.AGENT_SIMULATOR_LOG_LEVEL ?? 'info'): Logger {
  return winston.createLogger({
    level,
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    defaultMeta: { component: 'agent-simulator' },
    transports: [new winston.transports.Console()],
  });
}

/** A logger that drops everything, for unit tests. */
export function silentLogger(): Logger {
  return winston.createLogger({ silent: true, transports: [new winston.transports.Console({ silent: true })] });
}
