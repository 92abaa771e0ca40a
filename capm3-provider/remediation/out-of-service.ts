// CAPM3's out-of-service taint mode: on a management cluster of Kubernetes 1.28 or later (where
// the NodeOutOfServiceVolumeDetach feature is GA) a remediation keeps the Node and taints it
// `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` once the host is off, so its pods are
// deleted and their volumes detached; the taint is lifted when the host is back on. Older clusters
// get the Node deleted (and restored from a backup) instead.

/** How a remediation takes the powered-off host's Node out of service. */
export type NodeRemoval = 'out-of-service-taint' | 'delete';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export const OUT_OF_SERVICE_TAINT = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' } as const;

/** The first Kubernetes version whose out-of-service taint is GA (CAPM3's check, on the management cluster). */
const FIRST_VERSION_WITH_TAINT = { major: 1, minor: 28 };

/** Matched by key and effect, as corev1.Taint.MatchTaint does. */
export function isOutOfServiceTaint(taint: Taint): boolean {
  return taint.key === OUT_OF_SERVICE_TAINT.key && taint.effect === OUT_OF_SERVICE_TAINT.effect;
}

export function hasOutOfServiceTaint(taints: readonly Taint[] | undefined): boolean {
  return (taints ?? []).some(isOutOfServiceTaint);
}

/** The Node's taints with the out-of-service one added, stamped with when. */
export function withOutOfServiceTaint(taints: readonly Taint[] | undefined, now: string): Taint[] {
  return [...(taints ?? []), { ...OUT_OF_SERVICE_TAINT, timeAdded: now }];
}

export function withoutOutOfServiceTaint(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((taint) => !isOutOfServiceTaint(taint));
}

/**
 * CAPM3 picks the mode from the management cluster's `/version`. Providers' minor versions may
 * carry a suffix (`28+` on some distributions), which is read as its number.
 */
export function nodeRemovalFor(version: { major: string; minor: string }): NodeRemoval {
  const major = Number.parseInt(version.major, 10);
  const minor = Number.parseInt(version.minor, 10);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) {
    throw new Error(`cannot read the API server's version ${JSON.stringify(version)}`);
  }
  const supported = major > FIRST_VERSION_WITH_TAINT.major || (major === FIRST_VERSION_WITH_TAINT.major && minor >= FIRST_VERSION_WITH_TAINT.minor);
  return supported ? 'out-of-service-taint' : 'delete';
}
