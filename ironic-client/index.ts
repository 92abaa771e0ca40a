// Public surface of the Ironic client. Everything else under src/ is internal.
export { connectIronic } from './src/client.ts';
export type { IronicClient } from './src/client.ts';
export type { IronicClientOptions } from './src/options.ts';
export type { IronicAuthOptions } from './src/auth.ts';
export type { IronicTlsOptions } from './src/tls.ts';
export type { RetryOptions } from './src/retry.ts';

export {
  IronicError,
  IronicApiError,
  IronicBadRequestError,
  IronicNotFoundError,
  IronicNotAcceptableError,
  IronicConflictError,
  IronicServiceUnavailableError,
  IronicVersionUnsupportedError,
  IronicConnectionError,
  IronicContractError,
  isTransientIronicError,
} from './src/errors.ts';
export type { IronicErrorKind, IronicRequestInfo } from './src/errors.ts';

export {
  SUPPORTED_MICROVERSIONS,
  MINIMUM_MICROVERSION,
  FEATURE_MICROVERSIONS,
  chooseMicroversion,
  featuresAt,
} from './src/microversion.ts';
export type { Microversion, IronicFeature, IronicFeatures, VersionRange } from './src/microversion.ts';

export { REQUESTS_TOTAL, REQUEST_DURATION } from './src/metrics.ts';

export type { NodesApi } from './src/resources/nodes.ts';
export type { NodeListFilters, NodeSubset, DefaultNodeListField } from './src/resources/node-crud.ts';
export type { ProvisionStateOptions } from './src/resources/provisioning.ts';
export type { PowerStateOptions } from './src/resources/power.ts';
export type { BootDeviceOptions } from './src/resources/boot-device.ts';
export type { AttachVirtualMediaOptions } from './src/resources/virtual-media.ts';
export type {
  VendorPassthruCall,
  VendorPassthruResult,
  VendorHttpMethod,
  EventSubscription,
  EventSubscriptionOptions,
} from './src/resources/vendor-passthru.ts';
export type { NodeHistoryOptions } from './src/resources/history.ts';
export type { PortOperations, PortListFilters, PortSubset } from './src/resources/ports.ts';
export type { DriverOperations } from './src/resources/drivers.ts';
export type { AgentOperations, LookupOptions, HeartbeatOptions } from './src/resources/agent.ts';
export type { VersionOperations } from './src/resources/versions.ts';

export type * from './src/types.ts';
