export { validateHostNetworkAttachment, vlanEntryProblem } from './vlan-rules.ts';
export { attachmentReferences, cachedAttachmentReferences } from './host-references.ts';
export type { AttachmentName, FindAttachmentReferences, HostCache } from './host-references.ts';
