// Composition root of the client: compile options, build the transport, negotiate, expose resources.
import { featuresAt } from './microversion.ts';
import type { IronicFeatures, Microversion, VersionRange } from './microversion.ts';
import { createHttpClient } from './http.ts';
import { createRequestMetrics } from './metrics.ts';
import { negotiateMicroversion } from './negotiation.ts';
import { compileOptions } from './options.ts';
import type { IronicClientOptions } from './options.ts';
import { agentOperations } from './resources/agent.ts';
import type { AgentOperations } from './resources/agent.ts';
import type { ResourceContext } from './resources/context.ts';
import { driverOperations } from './resources/drivers.ts';
import type { DriverOperations } from './resources/drivers.ts';
import { createNodesApi } from './resources/nodes.ts';
import type { NodesApi } from './resources/nodes.ts';
import { portOperations } from './resources/ports.ts';
import type { PortOperations } from './resources/ports.ts';
import { versionOperations } from './resources/versions.ts';
import type { VersionOperations } from './resources/versions.ts';
import { Transport } from './transport.ts';

export interface IronicClient {
  /** Endpoint without /v1. */
  readonly endpoint: string;
  /** The version sent as X-OpenStack-Ironic-API-Version on every request. */
  readonly microversion: Microversion;
  readonly serverVersionRange: VersionRange;
  /** What BMO-relevant features the negotiated version allows. */
  readonly features: IronicFeatures;
  readonly nodes: NodesApi;
  readonly ports: PortOperations;
  readonly drivers: DriverOperations;
  readonly agent: AgentOperations;
  readonly versions: VersionOperations;
  /** Closes pooled keep-alive connections; later calls open new ones. */
  close(): void;
}

/**
 * Connects to Ironic: reads credential and TLS files, asks GET /v1 for the supported range and
 * pins the highest microversion the client speaks. Throws IronicVersionUnsupportedError below 1.89.
 */
export async function connectIronic(options: IronicClientOptions): Promise<IronicClient> {
  const compiled = await compileOptions(options);
  const transport = new Transport({
    http: createHttpClient(compiled),
    baseUrl: compiled.baseUrl,
    material: compiled.material,
    retry: compiled.retry,
    metrics: createRequestMetrics(compiled.metricsRegistry),
    beforeWrite: compiled.beforeWrite,
  });
  const close = () => compiled.material.close();
  let negotiated;
  try {
    negotiated = await negotiateMicroversion(transport);
  } catch (error) {
    close();
    throw error;
  }
  const { microversion, serverRange } = negotiated;
  const context: ResourceContext = { transport, microversion, features: featuresAt(microversion) };
  return Object.freeze({
    endpoint: compiled.baseUrl,
    microversion,
    serverVersionRange: serverRange,
    features: context.features,
    nodes: createNodesApi(context),
    ports: portOperations(context),
    drivers: driverOperations(context),
    agent: agentOperations(context),
    versions: versionOperations(transport),
    close,
  });
}
