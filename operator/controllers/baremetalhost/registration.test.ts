import { describe, expect, it } from '@jest/globals';
import { HostConfigError } from '../../configdrive/index.ts';
import { NeedsPreprovisioningImageError, busy, failed } from '../../provisioner/result.ts';
import type { PreprovisioningImageOutcome, WantedPreprovisioningImage } from './preprovisioning-image-store.ts';
import { ensureRegistered } from './registration.ts';
import { ScriptedProvisioner, withNode } from './testing/scripted-provisioner.ts';
import { contextFor, credentialsFor, hostFor, reasonsOf, registeredStatus } from './testing/hosts.ts';

describe('registration before every handler', () => {
  it('is a no-op for a registered host with unchanged credentials', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ status: registeredStatus('available') });
    expect(await ensureRegistered(host, contextFor(provisioner))).toBeUndefined();
    expect(provisioner.callsOf('register')[0]).toMatchObject({ credentialsChanged: false, retryAfterFailure: false, bootMode: 'UEFI' });
  });

  it('is skipped in none, unmanaged, match profile and deleting, and without credentials', async () => {
    const provisioner = new ScriptedProvisioner();
    for (const state of ['', 'unmanaged', 'match profile', 'deleting']) {
      expect(await ensureRegistered(hostFor({ status: registeredStatus(state) }), contextFor(provisioner))).toBeUndefined();
    }
    expect(await ensureRegistered(hostFor({ status: registeredStatus('available') }), contextFor(provisioner, { credentials: undefined }))).toBeUndefined();
    expect(provisioner.callsOf('register')).toEqual([]);
  });

  it('re-sends credentials when the Secret changed, and records tried and good versions', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ status: registeredStatus('provisioned') });
    const context = contextFor(provisioner, { credentials: credentialsFor('11') });
    expect(await ensureRegistered(host, context)).toBeUndefined();
    expect(provisioner.callsOf('register')[0]).toMatchObject({ credentialsChanged: true, credentials: { username: 'admin' } });
    expect(host.status.triedCredentials?.credentialsVersion).toBe('11');
    expect(host.status.goodCredentials?.credentialsVersion).toBe('11');
    expect(reasonsOf(context)).toEqual(['BMCAccessValidated']);
    expect(context.metrics).toContainEqual({ metric: 'credentialsUpdated' });
    // The re-registration is timed like the first one.
    expect(host.status.operationHistory?.register).toMatchObject({ start: '2026-05-01T12:00:00Z', end: '2026-05-01T12:00:00Z' });
  });

  it('gives Ironic the ramdisk network data when no PreprovisioningImage builder runs, and fails registration clearly on a bad Secret', async () => {
    const networkData = { links: [{ id: 'eth0', type: 'phy' }] };
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const context = contextFor(provisioner);
    context.preprovisioningNetworkData = networkData;
    expect(await ensureRegistered(hostFor({ status: registeredStatus('available') }), context)).toBeUndefined();
    expect(provisioner.callsOf('register')[0]).toMatchObject({ ramdiskNetworkData: networkData });

    const broken = contextFor(new ScriptedProvisioner());
    broken.ports.readPreprovisioningNetworkData = async () => ({ ok: false, error: new HostConfigError({ kind: 'not-a-map', secret: 'test/net', key: 'networkData',
      message: 'invalid preprovisioningNetworkData: Secret test/net (key networkData) is not a YAML or JSON map: a string' }) });
    const host = hostFor({ status: registeredStatus('available') });
    expect(await ensureRegistered(host, broken)).toMatchObject({ kind: 'failed', errorType: 'registration error',
      message: expect.stringContaining('invalid preprovisioningNetworkData: Secret test/net') });
  });

  it('lets go of the former Secret once credentials from a newly named one are good, and only then', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const renamed = hostFor({ status: registeredStatus('provisioned', { goodCredentials: { credentials: { name: 'old-secret', namespace: 'test' }, credentialsVersion: '7' } }) });
    const context = contextFor(provisioner);
    expect(await ensureRegistered(renamed, context)).toBeUndefined();
    expect(renamed.status.goodCredentials?.credentials?.name).toBe('bmc-secret');
    expect(context.formerCredentialsLetGo).toBe(1);
    // The same Secret edited, the first credentials ever, and new ones the BMC refused: nothing to let go.
    const edited = contextFor(provisioner, { credentials: credentialsFor('11') });
    await ensureRegistered(hostFor({ status: registeredStatus('provisioned') }), edited);
    const first = contextFor(provisioner);
    await ensureRegistered(hostFor({ status: registeredStatus('registering', { goodCredentials: undefined }) }), first);
    const refused = contextFor(new ScriptedProvisioner().script('register', failed('Failed to get power state: 401')));
    await ensureRegistered(hostFor({ status: registeredStatus('provisioned', { goodCredentials: { credentials: { name: 'old-secret', namespace: 'test' }, credentialsVersion: '7' } }) }), refused);
    expect([edited, first, refused].map((c) => c.formerCredentialsLetGo)).toEqual([0, 0, 0]);
  });

  it('keeps the good credentials when registration with new ones fails', async () => {
    const provisioner = new ScriptedProvisioner().script('register', failed('Failed to get power state: 401'));
    const host = hostFor({ status: registeredStatus('available') });
    const action = await ensureRegistered(host, contextFor(provisioner, { credentials: credentialsFor('12') }));
    expect(action).toEqual({ kind: 'failed', errorType: 'registration error', message: 'Failed to get power state: 401' });
    expect(host.status.triedCredentials?.credentialsVersion).toBe('12');
    expect(host.status.goodCredentials?.credentialsVersion).toBe('10');
  });

  it('retries the operation after a registration error and clears it on success', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ status: registeredStatus('available', { operationalStatus: 'error', errorType: 'registration error', errorMessage: 'x', errorCount: 2 }) });
    expect(await ensureRegistered(host, contextFor(provisioner))).toBeUndefined();
    expect(provisioner.callsOf('register')[0]).toMatchObject({ retryAfterFailure: true });
    expect(host.status).toMatchObject({ operationalStatus: 'OK', errorMessage: '' });
  });

  describe('after a registration error, retries once the backoff is over, not whenever the host is woken', () => {
    // The failure's status write, 10 s before the context's clock (12:00:00), stamped generation 1.
    const failedTenSecondsAgo = (extra: { generation?: number } = {}) => hostFor({
      metadata: { generation: extra.generation ?? 1 },
      status: registeredStatus('registering', {
        operationalStatus: 'error', errorType: 'registration error', errorMessage: 'Failed to get power state: 401', errorCount: 1,
        lastUpdated: '2026-05-01T11:59:50Z',
        conditions: [{ type: 'Ready', status: 'False', reason: 'Registering', message: '', lastTransitionTime: '2026-05-01T11:59:00Z', observedGeneration: 1 }],
      }),
    });

    it('waits out the shortest backoff for its errorCount (1 minute after the first failure)', async () => {
      const provisioner = new ScriptedProvisioner();
      const host = failedTenSecondsAgo();
      expect(await ensureRegistered(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 50_000 });
      expect(provisioner.callsOf('register')).toEqual([]);
      expect(host.status).toMatchObject({ operationalStatus: 'error', errorCount: 1 });
    });

    it('tries at once with new credentials in the Secret', async () => {
      const provisioner = new ScriptedProvisioner();
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      await ensureRegistered(failedTenSecondsAgo(), contextFor(provisioner, { credentials: credentialsFor('11') }));
      expect(provisioner.callsOf('register')[0]).toMatchObject({ credentialsChanged: true, retryAfterFailure: true });
    });

    it('tries at once after a spec edit since the failure was saved', async () => {
      const provisioner = new ScriptedProvisioner();
      withNode(provisioner, { namespace: 'test', name: 'host-0' });
      await ensureRegistered(failedTenSecondsAgo({ generation: 2 }), contextFor(provisioner));
      expect(provisioner.callsOf('register')[0]).toMatchObject({ credentialsChanged: false, retryAfterFailure: true });
    });
  });

  it('waits while the node is being enrolled', async () => {
    const provisioner = new ScriptedProvisioner().script('register', busy(3000, 'verifying'));
    const host = hostFor({ status: { provisioning: { state: 'registering' } } });
    expect(await ensureRegistered(host, contextFor(provisioner))).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(host.status.triedCredentials?.credentialsVersion).toBe('10');
  });

  it('records the node the provisioner names while it is verified, with the Registered event once, as BMO does', async () => {
    const provisioner = new ScriptedProvisioner().script('register', { ...busy(3000, 'verifying'), nodeId: 'node-1' }, { ...busy(3000, 'verifying'), nodeId: 'node-1' });
    const host = hostFor({ status: { provisioning: { state: 'registering' } } });
    const first = contextFor(provisioner);
    expect(await ensureRegistered(host, first)).toEqual({ kind: 'continue', afterMs: 3000 });
    expect(host.status.provisioning.ID).toBe('node-1');
    expect(reasonsOf(first)).toEqual(['Registered']);

    const second = contextFor(provisioner);
    await ensureRegistered(host, second);
    expect(provisioner.callsOf('register')[1]).toMatchObject({ host: { nodeId: 'node-1' } });
    expect(reasonsOf(second)).toEqual([]);
  });

  it('records a new node id replacing a known one (Ironic lost it), with the Registered event BMO sends for every node it creates', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ status: registeredStatus('preparing', { provisioning: { ID: 'old-node' } }) });
    const context = contextFor(provisioner);
    await ensureRegistered(host, context);
    expect(host.status.provisioning.ID).toBe('in-memory-1');
    expect(reasonsOf(context)).toContain('Registered');
  });

  it('sets the hardware profile, root device hints and credentials in one pass, then goes on to the registering handler', async () => {
    const provisioner = new ScriptedProvisioner();
    const host = hostFor({ spec: { bmc: { address: 'libvirt://127.0.0.1', credentialsName: 'bmc-secret' } }, status: { provisioning: { state: 'registering' } } });
    const context = contextFor(provisioner);
    // Nothing to save on its own: the handler's transition carries all of it in one status write.
    expect(await ensureRegistered(host, context)).toBeUndefined();
    expect(host.status.hardwareProfile).toBe('libvirt');
    expect(host.status.provisioning.rootDeviceHints).toEqual({ deviceName: '/dev/vda' });
    expect(host.status.goodCredentials).toEqual({ credentials: { name: 'bmc-secret', namespace: 'test' }, credentialsVersion: '10' });
    expect(reasonsOf(context)).toEqual(['Registered', 'ProfileSet', 'BMCAccessValidated']);
  });

  it('leaves what a registration changed in a later state to be saved with that state\'s handler\'s work', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const host = hostFor({ status: registeredStatus('available', { goodCredentials: { credentials: { name: 'bmc-secret', namespace: 'test' }, credentialsVersion: '9' } }) });
    expect(await ensureRegistered(host, contextFor(provisioner))).toBeUndefined();
    expect(host.status.goodCredentials?.credentialsVersion).toBe('10');
  });

  it('tells the provisioner what is deployed and the known MACs', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const image = { url: 'http://127.0.0.1/live.iso', format: 'live-iso' as const };
    const host = hostFor({
      spec: { image, inspectionMode: 'agent' },
      status: registeredStatus('provisioned', { provisioning: { image }, hardware: { nics: [{ mac: '00:00:5e:00:53:01' }, { mac: '00:00:5e:00:53:01' }] } }),
    });
    await ensureRegistered(host, contextFor(provisioner));
    expect(provisioner.callsOf('register')[0]).toMatchObject({
      currentImage: image,
      hasCustomDeploy: false,
      inspectionMode: 'agent',
      knownMacAddresses: ['00:00:5e:00:53:01'],
    });
  });
});

describe('registration with PreprovisioningImages (--build-preprov-image)', () => {
  const withImages = (provisioner: ScriptedProvisioner, outcome: PreprovisioningImageOutcome) => {
    const asked: WantedPreprovisioningImage[] = [];
    const context = contextFor(provisioner);
    context.ports.preprovisioningImage = async (wanted) => {
      asked.push(wanted);
      return outcome;
    };
    return { context, asked };
  };

  it('asks for no image while registering, and for one the BMC can boot afterwards', async () => {
    const provisioner = new ScriptedProvisioner();
    withNode(provisioner, { namespace: 'test', name: 'host-0' });
    const registering = withImages(provisioner, { kind: 'pending', reason: 'created' });
    await ensureRegistered(hostFor({ status: registeredStatus('registering') }), registering.context);
    expect(registering.asked).toEqual([]);
    const inspecting = withImages(provisioner, { kind: 'ready', image: { format: 'initrd', imageUrl: 'http://i/r', kernelUrl: 'http://i/k' } });
    await ensureRegistered(hostFor({ spec: { architecture: 'aarch64' }, status: registeredStatus('inspecting') }), inspecting.context);
    expect(inspecting.asked).toEqual([{ acceptFormats: ['initrd'], architecture: 'aarch64', networkDataName: undefined }]);
    expect(provisioner.callsOf('register').at(-1)).toMatchObject({ state: 'inspecting', preprovisioningImage: { imageUrl: 'http://i/r' } });
  });

  it('waits for an image not ready yet (metric, event, 5 minutes), and fails on an image the provisioner cannot use or a build error', async () => {
    const provisioner = new ScriptedProvisioner().script('register', new NeedsPreprovisioningImageError());
    const waiting = withImages(provisioner, { kind: 'pending', reason: 'the PreprovisioningImage is not ready' });
    expect(await ensureRegistered(hostFor({ status: registeredStatus('inspecting') }), waiting.context)).toEqual({ kind: 'continue', afterMs: 300_000 });
    expect(waiting.context.metrics).toContainEqual({ metric: 'waitingForPreprovImage' });
    expect(reasonsOf(waiting.context)).toEqual(['WaitingForPreprovisioningImage']);

    provisioner.script('register', new NeedsPreprovisioningImageError());
    const unusable = withImages(provisioner, { kind: 'ready', image: { format: 'iso', imageUrl: 'http://i/x.iso' } });
    expect(await ensureRegistered(hostFor({ status: registeredStatus('inspecting') }), unusable.context))
      .toEqual({ kind: 'failed', errorType: 'registration error', message: 'Preprovisioning Image is not acceptable to provisioner' });

    const broken = withImages(provisioner, { kind: 'error', message: 'No acceptable image format supported' });
    expect(await ensureRegistered(hostFor({ status: registeredStatus('preparing') }), broken.context))
      .toEqual({ kind: 'failed', errorType: 'registration error', message: 'No acceptable image format supported' });
  });
});
