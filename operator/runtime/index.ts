// Public surface of the controller runtime, for the operator and capm3-provider.
// The test helper (FakeClock) lives in ./testing/index.ts.

export type { Clock, Timer } from './clock.ts';
export { systemClock, sleep } from './clock.ts';
export type { Duration } from './duration.ts';
export { parseDuration, toMilliseconds } from './duration.ts';
export { Backoff, jittered } from './backoff.ts';
export type { BackoffOptions } from './backoff.ts';

export type { KubeObject, KubeList, ObjectMeta, ObjectName, OwnerReference, ResourceType } from './kube-object.ts';
export { apiVersionOf, groupOf, isBeingDeleted, keyOf, objectKey, objectName, parseKey, resourcePath } from './kube-object.ts';
export {
  ConfigMapResource,
  CustomResourceDefinitionResource,
  EventResource,
  LeaseResource,
  NamespaceResource,
  SecretResource,
} from './resources.ts';
export type { KubeError, KubeStatus, StatusCause } from './kube-errors.ts';
export {
  KubeStatusError,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isNamespaceTerminating,
  isGone,
  isInvalid,
  isNotFound,
  toKubeError,
} from './kube-errors.ts';
export { KubeClient, KubeHttpError } from './kube-client.ts';
export { DEFAULT_MAX_REQUEST_CONNECTIONS } from './kube-connection.ts';
export type { KubeRateLimit } from './kube-connection.ts';
export type { KubeClientOptions, KubeRequest, KubeTransport, RawWatchEvent, WatchEventType, WatchRequest } from './kube-client.ts';
export { KubeConfig, loadKubeConfig } from './kube-config.ts';
export type { KubeCluster, KubeContext, KubeUser } from './kube-config.ts';
export { PATCH_CONTENT_TYPES, createResourceClient } from './resource-client.ts';
export type {
  DeleteOptions,
  JsonPatchOperation,
  ListOptions,
  PatchOptions,
  PatchType,
  ReplaceOptions,
  ResourceClient,
  ResourceClientOptions,
  WatchEvent,
  WriteOptions,
} from './resource-client.ts';

export { Informer, withoutManagedFields } from './informer.ts';
export type { InformerHandler, InformerOptions } from './informer.ts';
export { listerWatcherFor } from './lister-watcher.ts';
export type { ListerWatcher, ListerWatcherOptions } from './lister-watcher.ts';

export { WorkQueue, noopWorkQueueMetrics } from './workqueue.ts';
export type { WorkQueueMetrics, WorkQueueOptions } from './workqueue.ts';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rate-limiter.ts';
export type { RateLimiter } from './rate-limiter.ts';

export {
  allows,
  and,
  annotationChanged,
  deletionRequested,
  finalizerChanged,
  generationChanged,
  labelChanged,
  not,
  or,
  resourceVersionChanged,
} from './predicates.ts';
export type { ObjectEvent, Predicate } from './predicates.ts';
export { keysForEvent, requestForObject, requestsForOwner } from './event-handlers.ts';
export type { MapFunc, OwnerMatchOptions } from './event-handlers.ts';

export type { ReconcileContext, ReconcileFunc, Reconciler, Request, Result } from './reconciler.ts';
export { LeaderElectionLostError, TerminalError, TransientError, isTerminalError } from './errors.ts';
export { Controller } from './controller.ts';
export type { ControllerOptions, WatchOptions } from './controller.ts';
export { ControllerBuilder } from './controller-builder.ts';
export type { ControllerBuildOptions, OwnsOptions, SourceOptions } from './controller-builder.ts';
export { Manager } from './manager.ts';
export type { InformerSelector, ManagerOptions, Runnable } from './manager.ts';

export { addFinalizer, hasFinalizer, removeFinalizer } from './finalizers.ts';
export type { FinalizerPatchOptions } from './finalizers.ts';
export { patchStatus, replaceStatus } from './status.ts';
export type { StatusPatchOptions } from './status.ts';
export { RecentWrites } from './recent-writes.ts';
export {
  ConditionSchema,
  findCondition,
  formatTime,
  isConditionFalse,
  isConditionTrue,
  isValidConditionReason,
  removeCondition,
  setCondition,
} from './conditions.ts';
export type { Condition, ConditionInput, ConditionStatus } from './conditions.ts';
export {
  AlreadyOwnedError,
  getControllerOf,
  objectReference,
  ownerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './object-references.ts';
export type { ObjectReference } from './object-references.ts';
export { ensureOwnerReference } from './owner-patch.ts';
export { formatMicroTime } from './micro-time.ts';
export { deepEqual } from './deep-equal.ts';
export { safeParseCached } from './parse-cached.ts';

export { createEventRecorder } from './event-recorder.ts';
export type { EventInput, EventObject, EventRecorder, EventRecorderOptions, EventType } from './event-recorder.ts';
export { EventCorrelator } from './event-correlator.ts';
export { LeaderElector } from './leader-election.ts';
export { LeadershipFence, NotLeaderError, fencedTransport } from './leadership-fence.ts';
export type { Lease, LeaseSpec, LeaderElectorOptions } from './leader-election.ts';

export { HealthChecks } from './health.ts';
export type { Check, CheckReport } from './health.ts';
export { parseBindAddress, startHttpServer } from './http-server.ts';
export type { BindAddress, HttpResponse, RouteHandler, RunningServer } from './http-server.ts';
export { createRuntimeMetrics } from './metrics.ts';
export { REST_CLIENT_CONNECTIONS_OPENED_TOTAL, REST_CLIENT_REQUESTS_BY_RESOURCE_TOTAL, REST_CLIENT_REQUESTS_TOTAL, createRestClientMetrics } from './rest-client-metrics.ts';
export type { RestClientMetrics } from './rest-client-metrics.ts';
export type { ControllerMetrics, ReconcileOutcome, RuntimeMetrics } from './metrics.ts';
export { LOG_LEVELS, createLogger, serializeError, silentLogger } from './logger.ts';
export type { LogFormat, LogLevel, LogMeta, Logger, LoggerOptions } from './logger.ts';

export { ConfigError, compileSettings, describeSettings, settingSchemas } from './settings.ts';
export type { CompiledSettings, SettingSpec, SettingsSource, SettingsSpec } from './settings.ts';
export { compileOptions, runtimeSettings, tlsCipherSuitesSetting, watchedNamespaces } from './runtime-options.ts';
export type { RuntimeDefaults, RuntimeOptions, RuntimeSettingsSpec } from './runtime-options.ts';
export { setupSignalHandler } from './signals.ts';

export { admissionReviewSchema, allowed, denied, fieldErrorBody, invalid, patched, verdict } from './admission-review.ts';
export type { AdmissionRequest, AdmissionResponseBody, FieldError } from './admission-review.ts';
export { conversionFailed, conversionReviewSchema, converted } from './conversion-review.ts';
export type { ConversionHandler, ConversionRequest, ConversionResponseBody } from './conversion-review.ts';
export { aggregateMessage } from './admission-violation.ts';
export type { Violation } from './admission-violation.ts';
export { WebhookServer } from './webhook-server.ts';
export type { TlsPolicy } from './tls-policy.ts';
export type { AdmissionHandler, WebhookServerOptions } from './webhook-server.ts';
export { cipherSuitesFromGoNames, curvesFromGoIds, curvesFromGoNames } from './go-tls-names.ts';
export type { CipherSuiteChoice } from './go-tls-names.ts';
export type { SignalHandler, SignalProcess } from './signals.ts';
export { LabelSelectorError, compileLabelSelector } from './label-selector.ts';
export type { CompiledLabelSelector, LabelSelectorInput } from './label-selector.ts';
export { SUMMARY_REASONS, summaryCondition } from './condition-summary.ts';
export { labelKeyProblems, labelValueProblems } from './label-syntax.ts';
