import { INFRASTRUCTURE_GROUP, INFRASTRUCTURE_VERSION } from '../api/index.ts';

// controller-runtime's paths, which CAPM3's webhook configuration names: /validate-<group with dashes>-<version>-<kind lowercased>.
const groupVersion = `${INFRASTRUCTURE_GROUP.replaceAll('.', '-')}-${INFRASTRUCTURE_VERSION}`;

export const validatePath = (kind: string): string => `/validate-${groupVersion}-${kind.toLowerCase()}`;
export const mutatePath = (kind: string): string => `/mutate-${groupVersion}-${kind.toLowerCase()}`;
