import { StatusDraft } from '../status-draft.ts';
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
}
