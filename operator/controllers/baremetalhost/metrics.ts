import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { CompactHistogram } from '../../runtime/compact-histogram.ts';
import type { ObjectName } from '../../runtime/kube-object.ts';
// BMO labels host errors with the event reason (e.g. ProvisioningError), not the errorType text.
import { ERROR_EVENT_REASONS as ERROR_LABELS } from './events.ts';
import type { MetricNote, Operation } from './state-context.ts';

/** What the hosts gauge counts: one entry per host. */
export interface HostSummary {
  state: string;
  operationalStatus: string;
}

export interface HostMetrics {
  reconciled(request: ObjectName): void;
  reconcileFailed(): void;
  credentials(outcome: 'missing' | 'invalid' | 'unhandled'): void;
  provisionerNotReady(): void;
  /** Applies a note a handler made, after the status it describes was saved. */
  apply(note: MetricNote, request: ObjectName): void;
  /** The host is gone: its series go too, so deleted hosts cost nothing. */
  forget(request: ObjectName): void;
}

// BMO's buckets for slow operations (seconds).
const SLOW_OPERATION_BUCKETS = [30, 90, 180, 360, 720, 1440];
// The Prometheus clients' default buckets (BMO's registration histogram sets none).
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * BMO's `metal3_*` metrics (internal/controller/metal3.io/metrics.go), same names, labels
 * and help, on an injected registry, plus `metal3_hosts{state,operational_status}` counted
 * from the host cache at scrape time. Reuses families already on the registry, so several
 * controllers in one test process can share it.
 */
export function createHostMetrics(registry: Registry, options: { hosts: () => HostSummary[] }): HostMetrics {
  const registers = [registry];
  const reuse = <T>(name: string, make: () => T): T => (registry.getSingleMetric(name) as T | undefined) ?? make();
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    reuse(name, () => new Counter<L>({ name, help, labelNames, registers }));
  const hostLabels = ['namespace', 'host'] as const;

  const reconcileTotal = counter('metal3_reconcile_total', 'The number of times hosts have been reconciled', hostLabels);
  const reconcileErrors = counter('metal3_reconcile_error_total', 'The number of times the operator has failed to reconcile a host');
  const hostErrors = counter('metal3_host_error_total', 'The number of times hosts have entered an error state', ['error_type']);
  const powerChanges = counter('metal3_operation_power_change_total', 'Number of times a host has been powered on or off', [...hostLabels, 'on_off']);
  const credentialsMissing = counter('metal3_credentials_missing_total', "Number of times a host's credentials are found to be missing");
  const credentialsInvalid = counter('metal3_credentials_invalid_total', "Number of times a host's credentials are found to be invalid");
  const credentialsUnhandled = counter('metal3_credentials_unhandled_error_total', "Number of times getting a host's credentials fails in an unexpected way");
  const credentialsUpdated = counter('metal3_credentials_updated_total', "Number of times a host's credentials change");
  const hostConfigDataError = counter('metal3_host_config_data_error_total', 'Number of times the operator has failed to retrieve host configuration data', ['host_data_type']);
  const delayedProvisioning = counter('metal3_delayed__provisioning_total', 'The number of times hosts have been delayed while provisioning due a busy provisioner', hostLabels);
  const delayedDeprovisioning = counter('metal3_delayed__deprovisioning_total', 'The number of times hosts have been delayed while deprovisioning due a busy provisioner', hostLabels);
  const stateChanges = counter('metal3_provisioning_state_change_total', 'Number of times a state transition has occurred', ['prev_state', 'new_state']);
  const registrationRequired = counter('metal3_host_registration_required_total', 'Number of times a host is found to be unregistered');
  const hostUnmanaged = counter('metal3_host_unmanaged_total', 'Number of times a host is found to be unmanaged');
  const deleteWithoutDeprovisioning = counter('metal3_delete_without_deprovisioning_total', 'Number of times a host is deleted despite deprovisioning failing');
  const deleteWithoutPoweringOff = counter('metal3_delete_without_powering_off_total', 'Number of times a host is deleted despite powering off failing');
  const provisionerNotReady = counter('metal3_provisioner_not_ready_total', 'Number of times a host is not provision ready');
  const deleteDelayedForDetached = counter('metal3_delete_delayed_for_detached_total', 'Number of times a host delete action was delayed due to the detached annotation');
  const waitingForPreprovImage = counter('metal3_waiting_for_preprov_image_total', 'Number of times the preprovisioning image is required but not available');
  // Registered for name parity with BMO; nothing here increments it (provisioner outages are
  // transient errors, not recorded per host).
  counter('metal3_credentials_no_management_access_total', 'Number of times a host management interface is unavailable');

  // Per-host series: compact ones, exposed as prom-client's Histogram would (compact-histogram.ts).
  const histogram = (name: string, help: string, buckets: number[]) =>
    reuse(name, () => new CompactHistogram({ name, help, labelNames: hostLabels, buckets, registers }));
  const durations: Record<Operation, CompactHistogram<'namespace' | 'host'>> = {
    register: histogram('metal3_operation_register_duration_seconds', 'Length of time per registration per host', DEFAULT_BUCKETS),
    inspect: histogram('metal3_operation_inspect_duration_seconds', 'Length of time per hardware inspection per host', SLOW_OPERATION_BUCKETS),
    provision: histogram('metal3_operation_provision_duration_seconds', 'Length of time per hardware provision operation per host', SLOW_OPERATION_BUCKETS),
    deprovision: histogram('metal3_operation_deprovision_duration_seconds', 'Length of time per hardware deprovision operation per host', SLOW_OPERATION_BUCKETS),
  };

  reuse('metal3_hosts', () =>
    new Gauge({
      name: 'metal3_hosts',
      help: 'Number of hosts per provisioning state and operational status',
      labelNames: ['state', 'operational_status'] as const,
      registers,
      collect() {
        this.reset();
        for (const host of options.hosts()) this.inc({ state: host.state, operational_status: host.operationalStatus });
      },
    }),
  );

  const labelsOf = (request: ObjectName) => ({ namespace: request.namespace ?? '', host: request.name });

  return {
    reconciled: (request) => reconcileTotal.inc(labelsOf(request)),
    reconcileFailed: () => reconcileErrors.inc(),
    credentials: (outcome) => (outcome === 'missing' ? credentialsMissing : outcome === 'invalid' ? credentialsInvalid : credentialsUnhandled).inc(),
    provisionerNotReady: () => provisionerNotReady.inc(),
    apply(note, request) {
      switch (note.metric) {
        case 'hostUnmanaged':
          return hostUnmanaged.inc();
        case 'registrationRequired':
          return registrationRequired.inc();
        case 'credentialsUpdated':
          return credentialsUpdated.inc();
        case 'hostError':
          return hostErrors.inc({ error_type: ERROR_LABELS[note.errorType] });
        case 'powerChange':
          return powerChanges.inc({ ...labelsOf(request), on_off: note.on ? 'on' : 'off' });
        case 'delayed':
          return (note.deprovisioning ? delayedDeprovisioning : delayedProvisioning).inc(labelsOf(request));
        case 'stateChange':
          return stateChanges.inc({ prev_state: note.from, new_state: note.to });
        case 'operationDuration':
          return durations[note.operation].observe(labelsOf(request), note.seconds);
        case 'deleteWithoutDeprovisioning':
          return deleteWithoutDeprovisioning.inc();
        case 'deleteWithoutPoweringOff':
          return deleteWithoutPoweringOff.inc();
        case 'deleteDelayedForDetached':
          return deleteDelayedForDetached.inc();
        case 'waitingForPreprovImage':
          return waitingForPreprovImage.inc();
        case 'hostConfigDataError':
          return hostConfigDataError.inc({ host_data_type: note.dataType });
      }
    },
    forget(request) {
      const labels = labelsOf(request);
      for (const counter of [reconcileTotal, delayedProvisioning, delayedDeprovisioning]) counter.remove(labels);
      for (const onOff of ['on', 'off']) powerChanges.remove({ ...labels, on_off: onOff });
      for (const durationsOf of Object.values(durations)) durationsOf.remove(labels);
    },
  };
}
