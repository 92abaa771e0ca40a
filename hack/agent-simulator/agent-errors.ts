/** The JSON shape IPA gives a failed command's `command_error` (its RESTError serialisation). */
export interface SerializedAgentError {
  type: string;
  code: number;
  message: string;
  details: string;
}

/**
 * An error the way IPA reports it: a class name (`type`), an HTTP-ish code, a
 * fixed summary (`message`) and the specifics (`details`). Ironic shows `details`
 * in the node's last_error, so those strings follow IPA's wording.
 */
export class AgentError extends Error {
  readonly type: string;
  readonly code: number;
  readonly summary: string;
  readonly details: string;
  /** IPA's InvalidContentError family: returned as an HTTP error instead of a recorded command result. */
  readonly invalidContent: boolean;
  /** For downloads: a 4xx that retrying cannot fix (IPA's ImageDownloadFatalError). */
  readonly fatal: boolean;

  constructor(fields: {
    type: string;
    summary: string;
    details: string;
    code?: number;
    invalidContent?: boolean;
    fatal?: boolean;
  }) {
    super(`${fields.summary}: ${fields.details}`);
    this.name = fields.type;
    this.type = fields.type;
    this.code = fields.code ?? 500;
    this.summary = fields.summary;
    this.details = fields.details;
    this.invalidContent = fields.invalidContent ?? false;
    this.fatal = fields.fatal ?? false;
  }

  serialize(): SerializedAgentError {
    return { type: this.type, code: this.code, message: this.summary, details: this.details };
  }
}

export const agentErrors = {
  invalidCommand: (details: string) =>
    new AgentError({ type: 'InvalidCommandError', summary: 'Invalid command', details, code: 400, invalidContent: true }),
  invalidCommandParams: (details: string) =>
    new AgentError({
      type: 'InvalidCommandParamsError',
      summary: 'Invalid command parameters',
      details,
      code: 400,
      invalidContent: true,
    }),
  extensionNotFound: (extension: string) =>
    new AgentError({
      type: 'RequestedObjectNotFoundError',
      summary: 'Not found',
      details: `Extension with id ${extension} not found.`,
      code: 404,
      invalidContent: true,
    }),
  agentIsBusy: (runningCommand: string) =>
    new AgentError({
      type: 'AgentIsBusy',
      summary: 'Agent is busy',
      details: `executing command ${runningCommand}`,
      code: 409,
      invalidContent: true,
    }),
  commandExecution: (details: string) =>
    new AgentError({ type: 'CommandExecutionError', summary: 'Command execution failed', details }),
  generic: (details: string) => new AgentError({ type: 'RESTError', summary: 'An error occurred', details }),
  methodNotFound: (method: string) =>
    new AgentError({
      type: 'HardwareManagerMethodNotFound',
      summary: 'No HardwareManager found to handle method',
      details: `Could not find method: ${method}`,
    }),
  versionMismatch: (agentVersion: unknown, nodeVersion: unknown) =>
    new AgentError({
      type: 'VersionMismatch',
      summary: 'Hardware managers version mismatch, reload agent with correct version',
      details: `Current versions: ${JSON.stringify(agentVersion)}, versions used by ironic: ${JSON.stringify(nodeVersion)}`,
    }),
  softwareRaid: (details: string) =>
    new AgentError({ type: 'SoftwareRAIDError', summary: 'Software RAID caused unknown error', details }),
  deployment: (details: string) => new AgentError({ type: 'DeploymentError', summary: 'Deploy step failed', details }),
  deviceNotFound: (details: string) =>
    new AgentError({
      type: 'DeviceNotFound',
      summary: 'Error finding the disk or partition device to deploy the image onto',
      details,
      code: 404,
    }),
  imageDownload: (imageId: string, reason: string, options: { fatal?: boolean } = {}) =>
    new AgentError({
      type: options.fatal ? 'ImageDownloadFatalError' : 'ImageDownloadError',
      summary: 'Error downloading image',
      details: `Download of image ${imageId} failed: ${reason}`,
      fatal: options.fatal ?? false,
    }),
  imageChecksum: (location: string, imageId: string, expected: string, actual: string) =>
    new AgentError({
      type: 'ImageChecksumError',
      summary: 'Error verifying image checksum',
      details:
        `Image failed to verify against checksum. location: ${location}; image ID: ${imageId}; ` +
        `image checksum: ${expected}; verification checksum: ${actual}`,
    }),
} as const;

/** Anything thrown inside a command becomes an IPA-style error (IPA wraps foreign exceptions the same way). */
export function toAgentError(error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return agentErrors.commandExecution(error instanceof Error ? error.message : String(error));
}
