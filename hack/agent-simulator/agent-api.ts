import type { IncomingMessage, ServerResponse } from 'node:http';
import { toAgentError, type AgentError } from './agent-errors.ts';
import type { RamdiskAgent } from './agent.ts';
import { readBody, sendJson } from './http-json.ts';

const MEDIA_TYPE = 'application/vnd.openstack.ironic-python-agent.v1+json';

/** IPA's error body: what Ironic reads as `faultstring` when a command request fails. */
function sendFault(response: ServerResponse, status: number, faultstring: string): void {
  sendJson(response, status, { faultcode: status >= 500 ? 'Server' : 'Client', faultstring });
}

function versionDocument(rootUrl: string) {
  return {
    id: 'v1',
    links: [
      { href: `${rootUrl}/v1/`, rel: 'self' },
      { href: 'https://docs.openstack.org/ironic-python-agent', rel: 'describedby', type: 'text/html' },
    ],
  };
}

/**
 * Serves IPA's REST API for one running agent under `rootUrl` (Ironic's agent_url).
 * `path` is what follows the agent's root, e.g. `/v1/commands/`.
 */
export async function handleAgentRequest(
  agent: RamdiskAgent,
  rootUrl: string,
  path: string,
  query: URLSearchParams,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const route = path.replace(/^\/(v1\/)?/, '/'); // IPA also serves the commands API without /v1
  if (request.method === 'GET' && (path === '/' || path === '')) {
    const version = versionDocument(rootUrl);
    sendJson(response, 200, {
      name: 'OpenStack Ironic Python Agent API',
      description: 'Ironic Python Agent is a provisioning agent for OpenStack Ironic (simulated)',
      versions: [version],
      default_version: version,
    });
    return;
  }
  if (request.method === 'GET' && path === '/v1/') {
    sendJson(response, 200, { ...versionDocument(rootUrl), media_types: [{ base: 'application/json', type: MEDIA_TYPE }] });
    return;
  }
  if (request.method === 'GET' && route === '/status') {
    sendJson(response, 200, { started_at: null, version: null });
    return;
  }
  if (!route.startsWith('/commands/')) {
    sendFault(response, 404, '404 Not Found: The requested URL was not found on the server.');
    return;
  }
  if (!agent.validateToken(query.get('agent_token'))) {
    sendFault(response, 401, '401 Unauthorized: Token invalid.');
    return;
  }
  const wait = query.get('wait')?.toLowerCase() === 'true';
  const commandId = decodeURIComponent(route.slice('/commands/'.length));
  if (request.method === 'GET' && commandId === '') {
    sendJson(response, 200, { commands: agent.listCommands() });
    return;
  }
  if (request.method === 'GET') {
    const result = wait ? await agent.waitFor(commandId) : agent.getCommand(commandId);
    if (result === undefined) sendFault(response, 404, `Not found: Command with id ${commandId} not found.`);
    else sendJson(response, 200, result);
    return;
  }
  if (request.method === 'POST' && commandId === '') {
    let body: { name?: unknown; params?: unknown };
    try {
      body = JSON.parse(await readBody(request)) as typeof body;
    } catch {
      sendFault(response, 400, '400 Bad Request: Missing or invalid name or params');
      return;
    }
    if (typeof body.name !== 'string' || body.params === null || typeof body.params !== 'object' || Array.isArray(body.params)) {
      sendFault(response, 400, '400 Bad Request: Missing or invalid name or params');
      return;
    }
    try {
      sendJson(response, 200, await agent.execute(body.name, body.params as Record<string, unknown>, { wait }));
    } catch (error) {
      const agentError: AgentError = toAgentError(error);
      sendFault(response, agentError.code, agentError.message);
    }
    return;
  }
  sendFault(response, 405, '405 Method Not Allowed: The method is not allowed for the requested URL.');
}
