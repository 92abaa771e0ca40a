import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCerts } from '../../hack/stack/certs.ts';

/*
 * An in-place update extension of Cluster API's Runtime SDK, as a Metal3 user runs one (CAPM3's
 * e2e runs its own, which upgrades Kubernetes on the node over SSH): it tells Cluster API which
 * changes it can make to a running Machine without replacing it (the Machine's Kubernetes
 * version; the Metal3Machine's image, applied to the installed OS instead of re-imaging the
 * host), and makes them when Cluster API asks (UpdateMachine), through `update`.
 */

const HOOKS_API_VERSION = 'hooks.runtime.cluster.x-k8s.io/v1alpha1';
const HOOKS_PATH = `/${HOOKS_API_VERSION}`;

type Hook = 'CanUpdateMachine' | 'CanUpdateMachineSet' | 'UpdateMachine';
/** The handler names registered by discovery (no dots: Cluster API names them `<handler>.<ExtensionConfig>`). */
const HANDLERS: Record<Hook, string> = {
  CanUpdateMachine: 'can-update-machine',
  CanUpdateMachineSet: 'can-update-machineset',
  UpdateMachine: 'update-machine',
};

type JsonObject = Record<string, unknown>;
/** The JSON pointers of what this extension can change in place, per kind of object in a request. */
const IN_PLACE_FIELDS = {
  machine: ['/spec/version'],
  machineSet: ['/spec/template/spec/version'],
  infrastructureMachine: ['/spec/image'],
  infrastructureMachineTemplate: ['/spec/template/spec/image'],
};

/** The Machine to update, as Cluster API wants it, and its infrastructure machine (a Metal3Machine) as patched. */
export interface UpdateMachineRequest {
  machine: JsonObject;
  infrastructureMachine: JsonObject;
}

export type UpdateProgress = { done: true } | { done: false; message: string };

export interface InPlaceUpdateExtension {
  /** Where Cluster API calls it (an ExtensionConfig's `spec.clientConfig.url`). */
  url: string;
  /** The CA its certificate chains to (the ExtensionConfig's `caBundle`, PEM). */
  caPem: string;
  /** Every hook call, in order, with the object it was about. */
  readonly calls: { hook: Hook; object: string; answer: string }[];
  close(): Promise<void>;
}

function valueAt(object: unknown, pointer: string): unknown {
  let value = object;
  for (const key of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as JsonObject)[key];
  }
  return value;
}

/**
 * The JSON patch that makes `current` equal `desired` at the fields this extension changes in
 * place, base64-encoded as Cluster API's `Patch.patch` (Go bytes); undefined when nothing differs.
 */
function inPlacePatch(current: unknown, desired: unknown, pointers: string[]): { patchType: 'JSONPatch'; patch: string } | undefined {
  const operations = pointers.flatMap((pointer) => {
    const want = valueAt(desired, pointer);
    if (JSON.stringify(valueAt(current, pointer)) === JSON.stringify(want)) return [];
    return [want === undefined ? { op: 'remove', path: pointer } : { op: 'add', path: pointer, value: want }];
  });
  return operations.length === 0 ? undefined : { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') };
}

const nameOf = (object: unknown) => {
  const metadata = (object as { metadata?: { namespace?: string; name?: string } } | undefined)?.metadata;
  return `${metadata?.namespace ?? ''}/${metadata?.name ?? ''}`;
};

function canUpdate(hook: 'CanUpdateMachine' | 'CanUpdateMachineSet', request: JsonObject): JsonObject {
  const current = (request.current ?? {}) as JsonObject;
  const desired = (request.desired ?? {}) as JsonObject;
  const [owner, infrastructure, ownerPatch, infrastructurePatch] = hook === 'CanUpdateMachine'
    ? ['machine', 'infrastructureMachine', 'machinePatch', 'infrastructureMachinePatch'] as const
    : ['machineSet', 'infrastructureMachineTemplate', 'machineSetPatch', 'infrastructureMachineTemplatePatch'] as const;
  const patches: JsonObject = {};
  const ownerChange = inPlacePatch(current[owner], desired[owner], IN_PLACE_FIELDS[owner]);
  if (ownerChange) patches[ownerPatch] = ownerChange;
  const infrastructureChange = inPlacePatch(current[infrastructure], desired[infrastructure], IN_PLACE_FIELDS[infrastructure]);
  if (infrastructureChange) patches[infrastructurePatch] = infrastructureChange;
  return { status: 'Success', ...patches };
}

function discovery(): JsonObject {
  return {
    status: 'Success',
    handlers: (Object.entries(HANDLERS) as [Hook, string][]).map(([hook, name]) => ({
      name, requestHook: { apiVersion: HOOKS_API_VERSION, hook }, timeoutSeconds: 10, failurePolicy: 'Fail',
    })),
  };
}

async function readJson(request: IncomingMessage): Promise<JsonObject> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonObject;
}

/** Serves on loopback over TLS (a throwaway CA in `dir`), as Cluster API calls extensions only over HTTPS. */
export async function startInPlaceUpdateExtension(options: {
  dir: string;
  update(request: UpdateMachineRequest): Promise<UpdateProgress>;
}): Promise<InPlaceUpdateExtension> {
  const certs = await generateServingCerts({ dir: options.dir, commonName: 'in-place-update-extension' });
  const calls: InPlaceUpdateExtension['calls'] = [];
  const hookByPath = new Map((Object.entries(HANDLERS) as [Hook, string][]).map(([hook, name]) => [`${HOOKS_PATH}/${hook.toLowerCase()}/${name}`, hook]));
  const answer = (response: ServerResponse, status: number, kind: string, body: JsonObject) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: HOOKS_API_VERSION, kind, ...body }));
  };
  const server: Server = createServer({ cert: readFileSync(certs.servingCert), key: readFileSync(certs.servingKey) }, (request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'https://extension').pathname;
      if (request.method !== 'POST') return answer(response, 405, 'Status', { message: `${request.method ?? ''} ${path}: only POST` });
      const body = await readJson(request);
      if (path === `${HOOKS_PATH}/discovery`) return answer(response, 200, 'DiscoveryResponse', discovery());
      const hook = hookByPath.get(path);
      if (hook === undefined) return answer(response, 404, 'Status', { message: `no handler at ${path}` });
      if (hook === 'UpdateMachine') {
        const desired = (body.desired ?? {}) as JsonObject;
        const machine = (desired.machine ?? {}) as JsonObject;
        let progress: UpdateProgress;
        try {
          progress = await options.update({ machine, infrastructureMachine: (desired.infrastructureMachine ?? {}) as JsonObject });
        } catch (error) {
          calls.push({ hook, object: nameOf(machine), answer: `Failure: ${(error as Error).message}` });
          return answer(response, 200, 'UpdateMachineResponse', { status: 'Failure', message: (error as Error).message, retryAfterSeconds: 0 });
        }
        calls.push({ hook, object: nameOf(machine), answer: progress.done ? 'done' : progress.message });
        return answer(response, 200, 'UpdateMachineResponse', progress.done
          ? { status: 'Success', retryAfterSeconds: 0 }
          : { status: 'Success', message: progress.message, retryAfterSeconds: 1 });
      }
      const result = canUpdate(hook, body);
      const subject = (body.current as JsonObject | undefined)?.[hook === 'CanUpdateMachine' ? 'machine' : 'machineSet'];
      calls.push({ hook, object: nameOf(subject), answer: Object.keys(result).filter((key) => key.endsWith('Patch')).join(',') || 'no patch' });
      return answer(response, 200, `${hook}Response`, result);
    })().catch((error: unknown) => {
      if (!response.headersSent) answer(response, 500, 'Status', { message: (error as Error).message });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caPem: readFileSync(certs.caCert, 'utf8'),
    calls,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
