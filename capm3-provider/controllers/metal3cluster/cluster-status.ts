import type { Condition } from '../../../operator/runtime/index.ts';
import { StatusDraft } from '../status-draft.ts';
import { setV1beta1Condition, setV1beta1Summary } from '../v1beta1-conditions.ts';
import type { Metal3Cluster } from '../../api/index.ts';

type Metal3ClusterStatus = NonNullable<Metal3Cluster['status']>;

/** A Metal3Cluster's status draft, with the v1beta1 contract's failure fields. */
export class ClusterStatus extends StatusDraft<Metal3ClusterStatus> {
  /** The v1beta1 contract's terminal failure fields, kept for tools that still read them. */
  failure(failure: { reason: string; message: string } | undefined): void {
    const v1beta1 = { ...this.next.deprecated?.v1beta1 };
    if (failure) {
      v1beta1.failureReason = failure.reason;
      v1beta1.failureMessage = failure.message;
    } else {
      delete v1beta1.failureReason;
      delete v1beta1.failureMessage;
    }
    if (Object.keys(v1beta1).length) this.next.deprecated = { ...this.next.deprecated, v1beta1 };
    else delete this.next.deprecated;
  }

  /**
   * CAPM3's deprecated v1beta1 BaremetalInfrastructureReady and its Ready summary, from this
   * pass's v1beta2 conditions: True once the endpoint is valid; ControlPlaneEndpointFailed or,
   * without its owner Cluster, InternalFailureOccured, both with severity Error.
   */
  legacyConditions(): void {
    const current = (this.next.conditions ?? []) as Condition[];
    const infrastructure = current.find((condition) => condition.type === 'BaremetalInfrastructureReady');
    const ready = current.find((condition) => condition.type === 'Ready');
    const now = new Date(this.now());
    let legacy = this.next.deprecated?.v1beta1?.conditions;
    if (ready?.status === 'False' && ready.reason === 'FailedToGetOwnerCluster') {
      legacy = setV1beta1Condition(legacy, { type: 'BaremetalInfrastructureReady', status: 'False', reason: 'InternalFailureOccured', severity: 'Error', message: ready.message }, now);
    } else if (infrastructure?.status === 'True') {
      legacy = setV1beta1Condition(legacy, { type: 'BaremetalInfrastructureReady', status: 'True' }, now);
    } else if (infrastructure) {
      legacy = setV1beta1Condition(legacy, { type: 'BaremetalInfrastructureReady', status: 'False', reason: infrastructure.reason, severity: 'Error', message: infrastructure.message }, now);
    }
    legacy = setV1beta1Summary(legacy, ['BaremetalInfrastructureReady'], now);
    if (!legacy?.length) return;
    this.next.deprecated = { ...this.next.deprecated, v1beta1: { ...this.next.deprecated?.v1beta1, conditions: legacy } };
  }
}
