import { z } from 'zod';
import { hostNetworkAttachmentRefSchema } from '../../api/network-interface.ts';
import type { KubeObject } from '../../runtime/index.ts';
import { safeParseCached } from '../../runtime/index.ts';

/** The attachment a webhook request is about. */
export interface AttachmentName {
  namespace: string;
  name: string;
}

/**
 * Each BareMetalHost interface referring to the attachment, as BMO lists them: `ns/host[iface]`.
 * Rejects when the hosts cannot be read, and the webhook then refuses (fails closed).
 */
export type FindAttachmentReferences = (attachment: AttachmentName) => Promise<string[]>;

/** Only what a reference needs of a host, so no other part of it can make it unreadable here. */
const referringHostSchema = z.looseObject({
  metadata: z.looseObject({ namespace: z.string().optional(), name: z.string().optional() }),
  spec: z.looseObject({
    networkInterfaces: z.array(z.looseObject({
      name: z.string().optional(),
      macAddress: z.string().optional(),
      hostNetworkAttachment: hostNetworkAttachmentRefSchema.optional(),
    })).optional(),
  }).optional(),
});
type ReferringHost = z.output<typeof referringHostSchema>;

/**
 * BMO's findBMHReferences over the given hosts: an interface refers to the attachment by name,
 * in the namespace it names or else in its host's own. Hosts in name order, interfaces in spec order.
 */
export function attachmentReferences(attachment: AttachmentName, hosts: readonly ReferringHost[]): string[] {
  const key = (host: ReferringHost) => `${host.metadata.namespace ?? ''}/${host.metadata.name ?? ''}`;
  const byKey = (a: ReferringHost, b: ReferringHost) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  return [...hosts].sort(byKey).flatMap((host) =>
    (host.spec?.networkInterfaces ?? [])
      .filter(({ hostNetworkAttachment: ref }) => ref?.name === attachment.name && (ref.namespace || host.metadata.namespace) === attachment.namespace)
      .map((entry) => `${key(host)}[${entry.name || entry.macAddress || ''}]`));
}

const issueText = (issues: readonly z.core.$ZodIssue[]) => issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');

/** Where the operator keeps BareMetalHosts: the manager's shared informer, filled while it leads. */
export interface HostCache {
  hasSynced(): boolean;
  list(): KubeObject[];
}

export interface HostSources {
  cache: HostCache;
  /** The hosts from the API server, for a replica whose cache is not filled (a standby). */
  listHosts(): Promise<KubeObject[]>;
}

/**
 * References found in the operator's BareMetalHost cache (as BMO reads its manager's cache),
 * not by listing hosts on every request; a standby replica, whose cache fills only once it
 * leads, lists them from the API server instead. A host that cannot be read is an error:
 * allowing then could cut an attachment from under a host.
 */
export function hostAttachmentReferences(sources: HostSources): FindAttachmentReferences {
  return async (attachment) => {
    const hosts = sources.cache.hasSynced() ? sources.cache.list() : await sources.listHosts();
    const readable = hosts.map((object) => {
      const parsed = safeParseCached(referringHostSchema, object);
      if (!parsed.success) {
        throw new Error(`BareMetalHost ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''} cannot be read: ${issueText(parsed.error.issues)}`);
      }
      return parsed.data;
    });
    return attachmentReferences(attachment, readable);
  };
}
