export { validateHostNetworkAttachment, vlanEntryProblem } from './vlan-rules.ts';
export { attachmentReferences, hostAttachmentReferences } from './host-references.ts';
export type { AttachmentName, FindAttachmentReferences, HostCache, HostSources } from './host-references.ts';
