import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { handleAgentRequest } from './agent-api.ts';
import { readBody, sendEmpty, sendJson } from './http-json.ts';
import type { Logger } from './log.ts';
import type { SimulatedMachine } from './machine.ts';
import { sushySystemSchema } from './notifications.ts';
import type { RecordStore } from './records.ts';

/** PUT /systems/<uuid>/os: what a test changes about the software on a server. */
const osSettingsSchema = z
  .strictObject({ healthy: z.boolean().optional(), ignoresGracefulShutdown: z.boolean().optional() })
  .refine((settings) => settings.healthy !== undefined || settings.ignoresGracefulShutdown !== undefined);

/** The request's JSON body as `schema` reads it; undefined, answered 400 (with `usage`), when it is not. */
async function validBody<T>(request: IncomingMessage, response: ServerResponse, schema: z.ZodType<T>, usage: string): Promise<T | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch (error) {
    sendJson(response, 400, { error: `body is not JSON: ${(error as Error).message}` });
    return undefined;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) sendJson(response, 400, { error: usage });
  return parsed.success ? parsed.data : undefined;
}

export interface SimulatorServerOptions {
  machines: ReadonlyMap<string, SimulatedMachine>;
  records: RecordStore;
  logger: Logger;
  /** Base URL agents advertise; agent roots are <advertiseUrl>/agents/<system uuid>. */
  advertiseUrl: string;
}

const AGENT_PATH = /^\/agents\/([^/]+)(\/.*)?$/;
const OS_PATH = /^\/systems\/([^/]+)\/os$/;
const IN_PLACE_UPDATE_PATH = /^\/systems\/([^/]+)\/in-place-update$/;
const inPlaceUpdateSchema = z
  .strictObject({ imageUrl: z.url().optional(), kubeletVersion: z.string().regex(/^v\d+\.\d+\.\d+/).optional() })
  .refine((update) => update.imageUrl !== undefined || update.kubeletVersion !== undefined);
const GRACEFUL_SHUTDOWN_PATH = /^\/systems\/([^/]+)\/graceful-shutdown$/;

/**
 * One HTTP server for everything the simulated hardware exposes:
 *   PUT  /                       sushy-tools fake-driver notifications
 *   *    /agents/<uuid>/...      the IPA API of the ramdisk running on that server
 *   GET  /records[/<uuid>]       what each server went through
 *   GET  /systems                current state of each server
 *   PUT  /systems/<uuid>/os      {"healthy": false}: the installed OS's boots register no Node;
 *                                {"ignoresGracefulShutdown": true}: graceful shutdowns change nothing (tests)
 *   POST /systems/<uuid>/graceful-shutdown   sushy-tools' power button: answers {"shutsDown": bool}
 *   GET  /healthz
 */
export function createSimulatorServer(options: SimulatorServerOptions): Server {
  const { machines, records, logger } = options;

  /** The simulated system a path names (its first group); undefined, answered 404, when there is none. */
  function machineOf(match: RegExpExecArray, response: ServerResponse): SimulatedMachine | undefined {
    const machine = machines.get(decodeURIComponent(match[1] ?? '').toLowerCase());
    if (machine === undefined) sendJson(response, 404, { error: 'no such simulated system' });
    return machine;
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://simulator');
    const path = url.pathname;
    const agentMatch = AGENT_PATH.exec(path);
    if (agentMatch !== null) {
      const systemUuid = decodeURIComponent(agentMatch[1] ?? '').toLowerCase();
      const agent = machines.get(systemUuid)?.agent;
      if (agent === undefined) {
        // No ramdisk is running there: to Ironic the agent's address simply does not answer.
        request.socket.destroy();
        return;
      }
      const rootUrl = `${options.advertiseUrl}/agents/${systemUuid}`;
      await handleAgentRequest(agent, rootUrl, agentMatch[2] ?? '/', url.searchParams, request, response);
      return;
    }
    if (request.method === 'PUT' && path === '/') {
      let system;
      try {
        system = sushySystemSchema.parse(JSON.parse(await readBody(request)));
      } catch (error) {
        sendJson(response, 400, { error: `not a sushy system notification: ${(error as Error).message}` });
        return;
      }
      const machine = machines.get(system.uuid.toLowerCase());
      // Answer first: sushy is blocked on this request while Ironic is blocked on sushy.
      sendEmpty(response, 204);
      if (machine === undefined) logger.debug('notification for a system we do not simulate', { systemUuid: system.uuid });
      else machine.notify(system);
      return;
    }
    if (request.method === 'GET' && path === '/healthz') {
      sendJson(response, 200, { status: 'ok', systems: machines.size });
      return;
    }
    if (request.method === 'GET' && path === '/systems') {
      sendJson(response, 200, { systems: [...machines.values()].map((machine) => machine.status()) });
      return;
    }
    const osMatch = OS_PATH.exec(path);
    if (request.method === 'PUT' && osMatch !== null) {
      const machine = machineOf(osMatch, response);
      const settings = machine && await validBody(request, response, osSettingsSchema,
        'body must be {"healthy"?: true|false, "ignoresGracefulShutdown"?: true|false} with at least one of them');
      if (machine === undefined || settings === undefined) return;
      if (settings.healthy !== undefined) machine.installedOs.setHealthy(settings.healthy);
      if (settings.ignoresGracefulShutdown !== undefined) machine.setIgnoresGracefulShutdown(settings.ignoresGracefulShutdown);
      sendJson(response, 200, machine.status());
      return;
    }
    const updateMatch = IN_PLACE_UPDATE_PATH.exec(path);
    if (request.method === 'POST' && updateMatch !== null) {
      const machine = machineOf(updateMatch, response);
      const update = machine && await validBody(request, response, inPlaceUpdateSchema,
        'body must be {"imageUrl"?: "<image URL>", "kubeletVersion"?: "v<major>.<minor>.<patch>"} with at least one of them');
      if (machine === undefined || update === undefined) return;
      const updated = machine.installedOs.updateInPlace(update);
      if (updated === undefined) sendJson(response, 409, { error: 'no installed OS to update: no image was written to this server\'s disk' });
      else sendJson(response, 200, updated);
      return;
    }
    const shutdownMatch = GRACEFUL_SHUTDOWN_PATH.exec(path);
    if (request.method === 'POST' && shutdownMatch !== null) {
      const machine = machineOf(shutdownMatch, response);
      if (machine !== undefined) sendJson(response, 200, { shutsDown: machine.gracefulShutdown() });
      return;
    }
    if (request.method === 'GET' && path === '/records') {
      sendJson(response, 200, { systems: records.all() });
      return;
    }
    const recordMatch = /^\/records\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && recordMatch !== null) {
      const found = records.get(decodeURIComponent(recordMatch[1] ?? ''));
      if (found === undefined) sendJson(response, 404, { error: 'no such simulated system' });
      else sendJson(response, 200, found);
      return;
    }
    sendJson(response, 404, { error: `no route for ${request.method ?? ''} ${path}` });
  }

  return createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      logger.error('request failed', { method: request.method, url: request.url, error: (error as Error).message });
      if (!response.headersSent) sendJson(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });
}
