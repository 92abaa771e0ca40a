import { z } from 'zod';
import { DETACHED_ANNOTATION, REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import { detachedAnnotationArgumentsSchema, rebootAnnotationArgumentsSchema } from '../../api/annotation-arguments.ts';
import type { DetachedAnnotationArguments } from '../../api/annotation-arguments.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { bareMetalHostStatusSchema, savedStatusFields } from '../../api/baremetalhost-status.ts';
import type { BareMetalHostStatus } from '../../api/baremetalhost-status.ts';
import { hardwareDetailsSchema } from '../../api/hardware-details.ts';
import type { HardwareDetails } from '../../api/hardware-details.ts';
import { deepEqual } from '../../runtime/deep-equal.ts';
import { annotationsOf } from './host.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseJson<T>(text: string, schema: z.ZodType<T>, options: { strict: boolean }): Parsed<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `invalid JSON: ${(error as Error).message}` };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.') || '<root>'}: ${i.message}`).join('; ') };
  // zod drops unknown keys; a strict reader (Go's DisallowUnknownFields) must notice them.
  if (options.strict && !deepEqual(JSON.parse(JSON.stringify(parsed.data)), raw)) return { ok: false, message: 'unknown or invalid fields' };
  return { ok: true, value: parsed.data };
}

/** The detached annotation's arguments; an empty value means plain detach. Undefined when absent. */
export function detachedArguments(host: BareMetalHost): Parsed<DetachedAnnotationArguments> | undefined {
  const value = annotationsOf(host)[DETACHED_ANNOTATION];
  if (value === undefined) return undefined;
  if (value === '') return { ok: true, value: {} };
  return parseJson(value, detachedAnnotationArgumentsSchema, { strict: false });
}

/**
 * `deleteAction: delay` holds the deletion of a detached host until the annotation changes; so
 * does a detached host whose annotation is gone, which is attached again first (as BMO does).
 */
export function deleteDelayedForDetached(host: BareMetalHost): boolean {
  const args = detachedArguments(host);
  if (args === undefined) return host.status?.operationalStatus === 'detached';
  return args.ok && args.value.deleteAction === 'delay';
}

export function isRebootAnnotation(key: string): boolean {
  return key === REBOOT_ANNOTATION_PREFIX || key.startsWith(`${REBOOT_ANNOTATION_PREFIX}/`);
}

export interface RebootRequest {
  requested: boolean;
  mode: 'soft' | 'hard';
  /** Annotation values that were not valid JSON; BMO reports them and assumes a soft reboot. */
  invalidValues: string[];
}

/**
 * Reboot annotations in force: the bare key (one-shot) and `reboot.metal3.io/<owner>` keys
 * (held until their owners remove them). Any `hard` request wins. With `forcedOnly`, only
 * requests marked `force: true` count (outside provisioned states).
 */
export function rebootRequest(host: BareMetalHost, options: { forcedOnly: boolean }): RebootRequest {
  const request: RebootRequest = { requested: false, mode: 'soft', invalidValues: [] };
  for (const [key, value] of Object.entries(annotationsOf(host))) {
    if (!isRebootAnnotation(key)) continue;
    let args: { mode?: 'soft' | 'hard'; force?: boolean } = {};
    if (value !== '') {
      const parsed = parseJson(value, rebootAnnotationArgumentsSchema, { strict: false });
      if (parsed.ok) args = parsed.value;
      else request.invalidValues.push(value);
    }
    if (options.forcedOnly && !args.force) continue;
    request.requested = true;
    if (args.mode === 'hard') request.mode = 'hard';
  }
  return request;
}

/** The one-shot reboot annotation, which BMO removes once the host is off. */
export function hasOneShotReboot(host: BareMetalHost): boolean {
  return REBOOT_ANNOTATION_PREFIX in annotationsOf(host);
}

/** `inspect.metal3.io/hardwaredetails`: strict JSON HardwareDetails. */
export function parseHardwareDetails(value: string): Parsed<HardwareDetails> {
  return parseJson(value, hardwareDetailsSchema, { strict: true });
}

/** `baremetalhost.metal3.io/status`: a JSON status saved before a pivot. */
export function parseStatusAnnotation(value: string): Parsed<BareMetalHostStatus> {
  return parseJson(value, z.preprocess(savedStatusFields, bareMetalHostStatusSchema), { strict: false });
}
