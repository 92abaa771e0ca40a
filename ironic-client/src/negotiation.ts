// Reads the server's microversion range from GET /v1 (falling back to its headers, then GET /)
// and picks the highest version the client speaks, refusing servers below the 1.89 floor.
import { IronicContractError, IronicVersionUnsupportedError } from './errors.ts';
import { chooseMicroversion, MINIMUM_MICROVERSION, parseMinor } from './microversion.ts';
import type { Microversion, VersionRange } from './microversion.ts';
import { fetchRoot, fetchV1 } from './resources/versions.ts';
import type { Transport } from './transport.ts';

export interface Negotiated {
  serverRange: VersionRange;
  microversion: Microversion;
}

async function discoverRange(transport: Transport): Promise<{ range: VersionRange; source: string }> {
  const v1 = await fetchV1(transport);
  if (v1.data.version) return { range: { min: v1.data.version.min_version, max: v1.data.version.version }, source: 'GET /v1' };
  const min = v1.headers['x-openstack-ironic-api-minimum-version'];
  const max = v1.headers['x-openstack-ironic-api-maximum-version'];
  if (min && max) return { range: { min, max }, source: 'GET /v1 headers' };
  const root = await fetchRoot(transport);
  return { range: { min: root.default_version.min_version, max: root.default_version.version }, source: 'GET /' };
}

export async function negotiateMicroversion(transport: Transport): Promise<Negotiated> {
  const { range, source } = await discoverRange(transport);
  for (const [field, value] of [['min_version', range.min], ['version', range.max]] as const) {
    try {
      parseMinor(value);
    } catch {
      throw new IronicContractError(`version.${field}`, `not a microversion: "${value}"`, {
        method: 'GET',
        route: source,
        url: transport.baseUrl,
      });
    }
  }
  const microversion = chooseMicroversion(range);
  if (microversion === undefined) {
    throw new IronicVersionUnsupportedError(
      `Ironic API ${MINIMUM_MICROVERSION} or newer is required; ${transport.baseUrl} supports ${range.min} to ${range.max}`,
      { requiredVersion: MINIMUM_MICROVERSION, availableVersion: range.max },
    );
  }
  transport.useMicroversion(microversion);
  return { serverRange: range, microversion };
}
