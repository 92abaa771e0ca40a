import { describe, expect, it } from '@jest/globals';
import { DETACHED_ANNOTATION, REBOOT_ANNOTATION_PREFIX } from '../../api/annotations.ts';
import { deleteDelayedForDetached, detachedArguments, parseHardwareDetails, parseStatusAnnotation, rebootRequest } from './annotations.ts';
import { hostFor } from './testing/hosts.ts';

describe('annotation values', () => {
  it('reads detached arguments; empty means plain detach', () => {
    expect(detachedArguments(hostFor())).toBeUndefined();
    expect(detachedArguments(hostFor({ metadata: { annotations: { [DETACHED_ANNOTATION]: '' } } }))).toEqual({ ok: true, value: {} });
    expect(deleteDelayedForDetached(hostFor({ metadata: { annotations: { [DETACHED_ANNOTATION]: '{"deleteAction":"delay"}' } } }))).toBe(true);
    expect(detachedArguments(hostFor({ metadata: { annotations: { [DETACHED_ANNOTATION]: '{"deleteAction":"later"}' } } }))).toMatchObject({ ok: false });
  });

  it('delays the deletion of a detached host without the annotation (attached again first), not of a plain one', () => {
    expect(deleteDelayedForDetached(hostFor({ status: { operationalStatus: 'detached' } }))).toBe(true);
    expect(deleteDelayedForDetached(hostFor())).toBe(false);
    expect(deleteDelayedForDetached(hostFor({ metadata: { annotations: { [DETACHED_ANNOTATION]: '' } }, status: { operationalStatus: 'detached' } }))).toBe(false);
  });

  it('combines reboot requests: hard wins, forced-only filters', () => {
    const host = hostFor({
      metadata: {
        annotations: {
          [REBOOT_ANNOTATION_PREFIX]: '',
          [`${REBOOT_ANNOTATION_PREFIX}/fencing`]: '{"mode":"hard","force":true}',
          unrelated: 'x',
        },
      },
    });
    expect(rebootRequest(host, { forcedOnly: false })).toEqual({ requested: true, mode: 'hard', invalidValues: [] });
    expect(rebootRequest(hostFor({ metadata: { annotations: { [REBOOT_ANNOTATION_PREFIX]: '' } } }), { forcedOnly: true }).requested).toBe(false);
    expect(rebootRequest(hostFor(), { forcedOnly: false })).toEqual({ requested: false, mode: 'soft', invalidValues: [] });
  });

  it('reads reboot and detached arguments as Go reads them into a struct: null leaves a field unset, keys match in any case', () => {
    const annotated = (annotations: Record<string, string>) => hostFor({ metadata: { annotations } });
    expect(rebootRequest(annotated({ [REBOOT_ANNOTATION_PREFIX]: 'null' }), { forcedOnly: false })).toEqual({ requested: true, mode: 'soft', invalidValues: [] });
    expect(rebootRequest(annotated({ [`${REBOOT_ANNOTATION_PREFIX}/a`]: '{"mode":null,"force":null}' }), { forcedOnly: false }))
      .toEqual({ requested: true, mode: 'soft', invalidValues: [] });
    expect(rebootRequest(annotated({ [`${REBOOT_ANNOTATION_PREFIX}/a`]: '{"Mode":"hard","FORCE":true}' }), { forcedOnly: true }))
      .toEqual({ requested: true, mode: 'hard', invalidValues: [] });
    expect(detachedArguments(annotated({ 'baremetalhost.metal3.io/detached': 'null' }))).toEqual({ ok: true, value: {} });
    expect(detachedArguments(annotated({ 'baremetalhost.metal3.io/detached': '{"DeleteAction":"delay"}' }))).toEqual({ ok: true, value: { deleteAction: 'delay' } });
  });

  it('reads hardware details strictly, rejecting unknown fields', () => {
    expect(parseHardwareDetails('{"ramMebibytes":1024,"cpu":{"arch":"x86_64"}}')).toEqual({ ok: true, value: { ramMebibytes: 1024, cpu: { arch: 'x86_64' } } });
    expect(parseHardwareDetails('{"ramMebibytes":1024,"surprise":1}')).toMatchObject({ ok: false });
    expect(parseHardwareDetails('not json')).toMatchObject({ ok: false, message: expect.stringContaining('invalid JSON') });
  });

  it('reads a saved status, filling Go zero values', () => {
    const parsed = parseStatusAnnotation('{"operationalStatus":"OK","provisioning":{"state":"provisioned","ID":"x"}}');
    expect(parsed).toMatchObject({ ok: true, value: { operationalStatus: 'OK', errorCount: 0, poweredOn: false, provisioning: { state: 'provisioned' } } });
    expect(parseStatusAnnotation('{"OperationalStatus":"OK","errorType":"","poweredOn":null,"Provisioning":{"state":"available"}}'))
      .toMatchObject({ ok: true, value: { operationalStatus: 'OK', poweredOn: false, provisioning: { state: 'available' } } });
  });
});
