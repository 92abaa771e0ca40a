// What every resource group needs: the transport and what the negotiated microversion allows.
import { IronicVersionUnsupportedError } from '../errors.ts';
import { FEATURE_MICROVERSIONS } from '../microversion.ts';
import type { IronicFeature, IronicFeatures } from '../microversion.ts';
import type { Transport } from '../transport.ts';

export interface ResourceContext {
  transport: Transport;
  microversion: string;
  features: IronicFeatures;
}

/** Refuses, before any request, a call the negotiated microversion cannot carry. */
export function requireFeature(context: ResourceContext, feature: IronicFeature, what: string): void {
  if (context.features[feature]) return;
  const requiredVersion = FEATURE_MICROVERSIONS[feature];
  throw new IronicVersionUnsupportedError(
    `${what} needs Ironic API ${requiredVersion}, but the client negotiated ${context.microversion}`,
    { requiredVersion, availableVersion: context.microversion },
  );
}
