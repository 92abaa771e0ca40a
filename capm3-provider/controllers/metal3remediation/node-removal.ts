import { z } from 'zod';
import type { KubeTransport, Logger } from '../../../operator/runtime/index.ts';
import { nodeRemovalFor } from '../../remediation/index.ts';
import type { NodeRemoval } from '../../remediation/index.ts';

const versionSchema = z.looseObject({ major: z.string(), minor: z.string(), gitVersion: z.string().optional() });

/** CAPM3's start-up check: the management cluster's `/version` decides how remediations take Nodes out of service. */
export async function managementNodeRemoval(transport: KubeTransport, logger: Logger): Promise<NodeRemoval> {
  const version = versionSchema.parse(await transport.request({ method: 'GET', path: '/version' }));
  const removal = nodeRemovalFor(version);
  logger.info('out-of-service taint', { supported: removal === 'out-of-service-taint', kubernetes: version.gitVersion ?? `${version.major}.${version.minor}` });
  return removal;
}
