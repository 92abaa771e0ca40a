import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stringify } from 'yaml';
import { repoRoot } from '../../../hack/stack/paths.ts';
import { SEED_FIXTURE_DIR, seedDocumentsOfKind, seedFixtureFiles } from '../../../operator/api/testing/seed-fixtures.ts';
import { readStackEnv } from '../../support/stack-env.ts';
import { Kubectl } from '../../support/kubectl.ts';
import { createUniqueNamespace, deleteNamespace, ensureNamespace } from '../../support/namespaces.ts';

const CRD_NAMES = ['baremetalhosts.metal3.io', 'hardwaredata.metal3.io'];
/** The namespace the seed manifests name; they are applied unchanged, so it has to exist. */
const SEED_NAMESPACE = 'metal3';

type Manifest = { metadata: { name: string; namespace?: string }; spec: Record<string, unknown>; status?: unknown };

/** The seed overview host, moved into `namespace` with every address on loopback (no operator runs here anyway). */
function loopbackHost(namespace: string): Manifest {
  const host = structuredClone(seedDocumentsOfKind('BareMetalHost')[0]!.document) as unknown as Manifest;
  delete host.status;
  host.metadata.namespace = namespace;
  const spec = host.spec as {
    bmc: { address: string };
    image: { url: string; checksum: string };
    userData: { namespace: string };
    networkData: { namespace: string };
  };
  spec.bmc.address = spec.bmc.address.replace('192.168.111.1', '127.0.0.1');
  spec.image.url = spec.image.url.replace('172.22.0.1', '127.0.0.1');
  spec.image.checksum = spec.image.checksum.replace('172.22.0.1', '127.0.0.1');
  spec.userData.namespace = namespace;
  spec.networkData.namespace = namespace;
  return host;
}

function headerOf(table: string): string {
  return (table.split('\n')[0] ?? '').trim().split(/\s+/).join(' ');
}

describe('metal3.io CRDs on the test API server', () => {
  const env = readStackEnv();
  const kubectl = new Kubectl(env);
  let namespace = '';
  let createdSeedNamespace = false;
  let installedCrds = false;

  beforeAll(async () => {
    installedCrds = (await kubectl.run(['get', 'crd', ...CRD_NAMES, '-o', 'name'])).code !== 0;
    // Server-side apply: the BMH CRD is too large for client-side apply's last-applied annotation.
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-k', join(repoRoot, 'deploy', 'crds')]);
    await kubectl.ok(['wait', '--for=condition=Established', '--timeout=60s', ...CRD_NAMES.map((name) => `crd/${name}`)]);
    namespace = await createUniqueNamespace(kubectl, 'api-crds');
    createdSeedNamespace = await ensureNamespace(kubectl, SEED_NAMESPACE);
  });

  afterAll(async () => {
    if (namespace) {
      await kubectl.ok(['delete', 'baremetalhosts,hardwaredata,secrets', '--all', '-n', namespace, '--wait=false']);
      await deleteNamespace(kubectl, namespace);
    }
    if (createdSeedNamespace) await deleteNamespace(kubectl, SEED_NAMESPACE);
    if (installedCrds) await kubectl.ok(['delete', 'crd', ...CRD_NAMES, '--wait=false']);
    kubectl.dispose();
  });

  it('registers the names and short names BMO uses', async () => {
    const crd = await kubectl.json<{ status: { acceptedNames: { shortNames: string[]; singular: string } } }>(['get', 'crd', CRD_NAMES[0]!]);
    expect(crd.status.acceptedNames).toMatchObject({ singular: 'baremetalhost', shortNames: ['bmh', 'bmhost'] });
    const resources = await kubectl.ok(['api-resources', '--api-group=metal3.io', '--no-headers']);
    expect(resources.split('\n').map((line) => line.trim().split(/\s+/).join(' '))).toEqual(
      expect.arrayContaining(['baremetalhosts bmh,bmhost metal3.io/v1alpha1 true BareMetalHost', 'hardwaredata hd metal3.io/v1alpha1 true HardwareData']),
    );
  });

  it.each(seedFixtureFiles())('accepts seed fixture %s unchanged (server dry run)', async (file) => {
    const result = await kubectl.run(['apply', '--dry-run=server', '-f', join(SEED_FIXTURE_DIR, file)]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/\(server dry run\)/);
  });

  it('applies defaults server-side and creates nothing on a dry run', async () => {
    const host = await kubectl.json<Manifest>(['apply', '--dry-run=server', '-f', join(SEED_FIXTURE_DIR, '000-baremetalhost-node-0.yaml')]);
    expect(host.spec.automatedCleaningMode).toBe('metadata');
    // BMO reads an unset boot mode as UEFI in code; the CRD does not write it.
    expect(host.spec.bootMode).toBeUndefined();
    expect(await kubectl.ok(['get', 'bmh', '-n', SEED_NAMESPACE, '-o', 'name'])).toBe('');
  });

  it('rejects an invalid enum and says which values are allowed', async () => {
    const host = structuredClone(seedDocumentsOfKind('BareMetalHost')[0]!.document) as unknown as Manifest;
    host.spec.bootMode = 'Foo';
    const result = await kubectl.run(['apply', '--dry-run=server', '-f', '-'], stringify(host));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('spec.bootMode: Unsupported value: "Foo": supported values: "UEFI", "UEFISecureBoot", "legacy"');
  });

  it('creates a host that `kubectl get bmh` prints with BMO columns', async () => {
    await kubectl.ok(['create', '-f', '-'], stringify(loopbackHost(namespace)));
    const table = await kubectl.ok(['get', 'bmh', '-n', namespace]);
    expect(headerOf(table)).toBe('NAME STATE CONSUMER ONLINE ERROR AGE');
    expect(table.split('\n')[1]?.trim().split(/\s+/).slice(0, 2)).toEqual(['node-0', 'true']);
    expect(headerOf(await kubectl.ok(['get', 'bmh', '-n', namespace, '-o', 'wide']))).toBe('NAME STATUS STATE CONSUMER BMC ONLINE ERROR AGE');
    expect((await kubectl.ok(['get', 'bmhost', '-n', namespace, '-o', 'name'])).trim()).toBe('baremetalhost.metal3.io/node-0');
  });

  it('ignores status sent with the object and takes it through the status subresource', async () => {
    await kubectl.ok(['patch', 'bmh', 'node-0', '-n', namespace, '--type=merge', '-p', JSON.stringify({ status: { operationalStatus: 'OK' } })]);
    expect((await kubectl.json<Manifest>(['get', 'bmh', 'node-0', '-n', namespace])).status).toBeUndefined();

    const status = { operationalStatus: 'OK', errorMessage: '', poweredOn: false, provisioning: { state: 'registering', ID: '' } };
    await kubectl.ok(['patch', 'bmh', 'node-0', '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    const host = await kubectl.json<Manifest>(['get', 'bmh', 'node-0', '-n', namespace]);
    expect(host.status).toEqual({ ...status, errorCount: 0, provisioningFailCount: 0 });
    expect((await kubectl.ok(['get', 'bmh', 'node-0', '-n', namespace, '--no-headers'])).trim().split(/\s+/).slice(0, 3)).toEqual([
      'node-0',
      'registering',
      'true',
    ]);
  });

  it("records 'detach error', which BMO's own CRD would refuse", async () => {
    const patch = { status: { operationalStatus: 'error', errorType: 'detach error', errorMessage: 'node delete failed' } };
    await kubectl.ok(['patch', 'bmh', 'node-0', '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify(patch)]);
    const errorColumn = await kubectl.ok(['get', 'bmh', 'node-0', '-n', namespace, '-o', 'custom-columns=ERROR:.status.errorType', '--no-headers']);
    expect(errorColumn.trim()).toBe('detach error');
  });

  it('validates status writes: enums and required fields', async () => {
    const badEnum = await kubectl.run([
      'patch', 'bmh', 'node-0', '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { operationalStatus: 'broken' } }),
    ]);
    expect(badEnum.stderr).toContain('status.operationalStatus: Unsupported value: "broken"');
    const missing = await kubectl.run([
      'patch', 'bmh', 'node-0', '-n', namespace, '--subresource=status', '--type=json', '-p', JSON.stringify([{ op: 'remove', path: '/status/poweredOn' }]),
    ]);
    expect(missing.stderr).toContain('status.poweredOn: Required value');
  });

  it('stores HardwareData and lists it with `kubectl get hd`', async () => {
    const seed = seedDocumentsOfKind('BareMetalHost')[0]!.document as { status: { hardware: unknown } };
    const data = {
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'HardwareData',
      metadata: { name: 'node-0', namespace },
      spec: { hardware: seed.status.hardware },
    };
    await kubectl.ok(['create', '-f', '-'], stringify(data));
    const stored = await kubectl.json<{ spec: unknown }>(['get', 'hardwaredata', 'node-0', '-n', namespace]);
    expect(stored.spec).toEqual(data.spec);
    expect(headerOf(await kubectl.ok(['get', 'hd', '-n', namespace]))).toBe('NAME AGE');
  });
});
