// Microversion parsing and the choice BMO makes (pkg/provisioner/ironic/clients/features.go).

/** Versions the client is willing to speak, highest first. */
export const SUPPORTED_MICROVERSIONS = ['1.110', '1.109', '1.95', '1.93', '1.89'] as const;
export type Microversion = (typeof SUPPORTED_MICROVERSIONS)[number];

/** BMO's floor: virtual media attach/detach arrived in 1.89. */
export const MINIMUM_MICROVERSION: Microversion = '1.89';

/** What BMO uses each microversion above the floor for. */
export const FEATURE_MICROVERSIONS = {
  virtualMediaAttach: '1.89',
  virtualMediaGet: '1.93',
  disablePowerOff: '1.95',
  nodeHealth: '1.109',
  deployWaitAbort: '1.110',
} as const satisfies Record<string, Microversion>;

export type IronicFeature = keyof typeof FEATURE_MICROVERSIONS;
export type IronicFeatures = Readonly<Record<IronicFeature, boolean>>;

export interface VersionRange {
  min: string;
  max: string;
}

/** Minor number of a "1.N" version; Ironic only has major version 1. */
export function parseMinor(version: string): number {
  const match = /^1\.(\d+)$/.exec(version.trim());
  if (!match?.[1]) throw new Error(`not an Ironic v1 microversion: "${version}"`);
  return Number(match[1]);
}

export function compareMicroversions(a: string, b: string): number {
  return parseMinor(a) - parseMinor(b);
}

/** Highest supported version the server range allows, or undefined when the range is below the floor. */
export function chooseMicroversion(range: VersionRange): Microversion | undefined {
  const min = parseMinor(range.min);
  const max = parseMinor(range.max);
  return SUPPORTED_MICROVERSIONS.find((candidate) => {
    const minor = parseMinor(candidate);
    return minor <= max && minor >= min;
  });
}

export function featuresAt(version: string): IronicFeatures {
  const minor = parseMinor(version);
  const entries = Object.entries(FEATURE_MICROVERSIONS).map(([name, since]) => [name, minor >= parseMinor(since)]);
  return Object.freeze(Object.fromEntries(entries)) as IronicFeatures;
}
