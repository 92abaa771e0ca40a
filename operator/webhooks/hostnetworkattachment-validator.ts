import { z } from 'zod';
import { hostNetworkAttachmentSchema } from '../api/hostnetworkattachment.ts';
import type { HostNetworkAttachment, HostNetworkAttachmentSpec } from '../api/hostnetworkattachment.ts';
import { objectMetaSchema } from '../api/object-meta.ts';
import { allowed, deepEqual, denied, verdict } from '../runtime/index.ts';
import type { AdmissionRequest, AdmissionResponseBody, Logger } from '../runtime/index.ts';
import { validateHostNetworkAttachment } from './hostnetworkattachment/index.ts';
import type { AttachmentName, FindAttachmentReferences } from './hostnetworkattachment/index.ts';

/** BMO's path for the HostNetworkAttachment validating webhook. */
export const HOSTNETWORKATTACHMENT_WEBHOOK_PATH = '/validate-metal3-io-v1alpha1-hostnetworkattachment';

export interface HostNetworkAttachmentReviewDeps {
  logger: Logger;
  /** The BareMetalHost interfaces referring to an attachment (the operator's host cache, or the API on a standby). */
  findReferences: FindAttachmentReferences;
}

type Parsed = { ok: true; attachment: HostNetworkAttachment } | { ok: false; response: AdmissionResponseBody };

function parseAttachment(request: AdmissionRequest, object: unknown): Parsed {
  const parsed = hostNetworkAttachmentSchema.safeParse(object);
  if (parsed.success) return { ok: true, attachment: parsed.data };
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  return { ok: false, response: denied(request.uid, { message: `not a valid HostNetworkAttachment: ${detail}` }) };
}

/** The attachment's namespace and name: the request's, else the object's own. */
function attachmentName(request: AdmissionRequest, object: unknown): AttachmentName {
  const metadata = z.looseObject({ metadata: objectMetaSchema }).safeParse(object);
  const own = metadata.success ? metadata.data.metadata : {};
  return { namespace: request.namespace ?? own.namespace ?? '', name: request.name ?? own.name ?? '' };
}

/** Equal as Go's equality.Semantic sees two specs: no allowedVLANs and an empty list are the same. */
function sameSpec(a: HostNetworkAttachmentSpec | undefined, b: HostNetworkAttachmentSpec | undefined): boolean {
  const comparable = (spec: HostNetworkAttachmentSpec | undefined) =>
    spec === undefined ? undefined : { ...spec, allowedVLANs: spec.allowedVLANs?.length ? spec.allowedVLANs : undefined };
  return deepEqual(comparable(a), comparable(b));
}

/** The references, or the error that stopped the look-up (the caller then refuses). */
async function lookUp(find: FindAttachmentReferences, attachment: AttachmentName): Promise<{ references: string[] } | { error: string }> {
  try {
    return { references: await find(attachment) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * BMO's validateUpdate: the new spec's rules; then, if the spec changed, no BareMetalHost may
 * refer to the attachment (the spec is fixed while in use; metadata-only updates always pass).
 */
async function reviewUpdate(request: AdmissionRequest, deps: HostNetworkAttachmentReviewDeps): Promise<AdmissionResponseBody> {
  const updated = parseAttachment(request, request.object);
  if (!updated.ok) return updated.response;
  const old = parseAttachment(request, request.oldObject);
  if (!old.ok) return old.response;
  const target = attachmentName(request, request.oldObject);
  if (sameSpec(old.attachment.spec, updated.attachment.spec)) return allowed(request.uid);
  const violations = validateHostNetworkAttachment(updated.attachment);
  // A spec that is wrong anyway is refused before any host is looked at.
  if (violations.length > 0) return verdict(request, { target, violations, logger: deps.logger });
  const found = await lookUp(deps.findReferences, target);
  const message = 'error' in found
    ? `failed to check BMH references, cannot safely allow update: ${found.error}`
    : found.references.length > 0 ? `HostNetworkAttachment spec is immutable while referenced by BMH interfaces: ${found.references.join(', ')}` : undefined;
  if (message === undefined) {
    deps.logger.debug('no BMH references found, allowing update', { ...target });
    return allowed(request.uid);
  }
  deps.logger.info('validate update: denied', { ...target, reason: message });
  return denied(request.uid, { message });
}

/** BMO's validateDelete: refused while a BareMetalHost interface refers to the attachment, with a warning naming them. */
async function reviewDelete(request: AdmissionRequest, deps: HostNetworkAttachmentReviewDeps): Promise<AdmissionResponseBody> {
  const target = attachmentName(request, request.oldObject);
  const found = await lookUp(deps.findReferences, target);
  if ('error' in found) {
    const message = `failed to check BMH references: ${found.error}`;
    deps.logger.info('validate delete: denied', { ...target, reason: message });
    return denied(request.uid, { message });
  }
  if (found.references.length === 0) return allowed(request.uid);
  const references = found.references.join(', ');
  // BMO returns apierrors.NewForbidden, whose message names the resource and the object.
  const message = `hostnetworkattachments.metal3.io ${JSON.stringify(target.name)} is forbidden: cannot delete attachment while referenced by BMH interfaces: ${references}`;
  deps.logger.info('validate delete: denied', { ...target, reason: message });
  return denied(request.uid, { message, warnings: [`This attachment is referenced by: ${references}`] });
}

/** Answers an AdmissionReview for a HostNetworkAttachment: create, update and delete, as BMO's webhook. */
export async function reviewHostNetworkAttachment(request: AdmissionRequest, deps: HostNetworkAttachmentReviewDeps): Promise<AdmissionResponseBody> {
  switch (request.operation) {
    case 'CREATE': {
      const created = parseAttachment(request, request.object);
      if (!created.ok) return created.response;
      const target = attachmentName(request, request.object);
      return verdict(request, { target, violations: validateHostNetworkAttachment(created.attachment), logger: deps.logger });
    }
    case 'UPDATE':
      return reviewUpdate(request, deps);
    case 'DELETE':
      return reviewDelete(request, deps);
    default:
      return allowed(request.uid);
  }
}
