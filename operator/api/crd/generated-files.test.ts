import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { GENERATED_HEADER } from './render-yaml.ts';
import { generatedFiles } from './generated-files.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

describe('generated CRD files', () => {
  it('are the same on every run', () => {
    expect(generatedFiles()).toEqual(generatedFiles());
  });

  it('are deploy/crds: every CRD and a kustomization listing them', () => {
    const files = generatedFiles();
    const crds = ['baremetalhosts', 'hardwaredata', 'hostfirmwaresettings', 'firmwareschemas', 'hostfirmwarecomponents', 'dataimages', 'hostupdatepolicies', 'bmceventsubscriptions', 'preprovisioningimages', 'hostclaims', 'hostdeploypolicies', 'baremetalswitches', 'hostnetworkattachments'].map((plural) => `metal3.io_${plural}.yaml`);
    expect(files.map(({ path }) => path)).toEqual([...crds.map((name) => `deploy/crds/${name}`), 'deploy/crds/kustomization.yaml']);
    expect(parse(files[crds.length]!.content)).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: crds,
    });
  });

  it("give HostUpdatePolicy BMO's empty status and no status subresource", () => {
    const file = generatedFiles().find(({ path }) => path.endsWith('metal3.io_hostupdatepolicies.yaml'))!;
    const [version] = (parse(file.content) as { spec: { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } }; subresources?: unknown }[] } }).spec.versions;
    expect(version!.schema.openAPIV3Schema.properties.status).toEqual({ type: 'object', description: expect.any(String) });
    expect(version).not.toHaveProperty('subresources');
  });

  it("give HostNetworkAttachment BMO's status subresource though it has no status field", () => {
    const file = generatedFiles().find(({ path }) => path.endsWith('metal3.io_hostnetworkattachments.yaml'))!;
    const [version] = (parse(file.content) as { spec: { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } }; subresources?: unknown }[] } }).spec.versions;
    expect(version!.schema.openAPIV3Schema.properties).not.toHaveProperty('status');
    expect(version!.subresources).toEqual({ status: {} });
  });

  it('carry the do-not-edit header and sorted keys', () => {
    for (const file of generatedFiles()) {
      expect(file.content.startsWith(GENERATED_HEADER)).toBe(true);
      expect(file.content.endsWith('\n')).toBe(true);
    }
    const crd = generatedFiles()[0]!.content;
    expect(crd.indexOf('\n  group: metal3.io')).toBeLessThan(crd.indexOf('\n  names:'));
  });

  it('match what is committed (run `node operator/api/crd/generate.ts` after changing a schema)', () => {
    for (const file of generatedFiles()) {
      expect({ path: file.path, content: readFileSync(join(repoRoot, file.path), 'utf8') }).toEqual(file);
    }
  });
});
