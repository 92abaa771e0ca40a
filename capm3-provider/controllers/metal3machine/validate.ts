import type { Metal3Machine } from '../../api/index.ts';

/**
 * What CAPM3's webhook would reject, reported as a condition instead (we have no webhook
 * yet): image XOR customDeploy, checksum rules, data Secrets in the machine's namespace only.
 */
export function machineSpecProblems(m3m: Metal3Machine): string[] {
  const problems: string[] = [];
  const { image, customDeploy } = m3m.spec;
  if (!image && !customDeploy) problems.push('spec.image or spec.customDeploy is required');
  if (image && customDeploy) problems.push('spec.image and spec.customDeploy are mutually exclusive');
  if (image) {
    const exempt = image.diskFormat === 'live-iso' || image.url.startsWith('oci://');
    if (!exempt && !image.checksum) problems.push('spec.image.checksum is required unless diskFormat is live-iso or the URL is oci://');
  }
  const namespace = m3m.metadata.namespace;
  for (const field of ['userData', 'metaData', 'networkData'] as const) {
    const ref = m3m.spec[field];
    if (ref?.namespace && ref.namespace !== namespace) {
      problems.push(`spec.${field} must be in the Metal3Machine's namespace ${namespace}, not ${ref.namespace}`);
    }
  }
  return problems;
}
