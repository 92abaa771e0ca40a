import { describe, expect, it } from '@jest/globals';
import { needsProvisioning, provisioningCancelled } from './host.ts';
import { hostFor, registeredStatus } from './testing/hosts.ts';

const image = { url: 'http://127.0.0.1/a.raw', checksum: 'x' };

describe('provisioning decisions', () => {
  it('needs provisioning when online with an undeployed image or custom deploy', () => {
    expect(needsProvisioning(hostFor({ spec: { image }, status: registeredStatus('available') }))).toBe(true);
    expect(needsProvisioning(hostFor({ spec: { image, online: false }, status: registeredStatus('available') }))).toBe(false);
    expect(needsProvisioning(hostFor({ spec: { image }, status: registeredStatus('available', { provisioning: { image } }) }))).toBe(false);
    expect(needsProvisioning(hostFor({ spec: { customDeploy: { method: 'm' } }, status: registeredStatus('available') }))).toBe(true);
  });

  it('cancels when the image is removed or changed, not while it is being deployed', () => {
    expect(provisioningCancelled(hostFor({ spec: { image }, status: registeredStatus('provisioning') }))).toBe(false);
    expect(provisioningCancelled(hostFor({ status: registeredStatus('provisioned', { provisioning: { image } }) }))).toBe(true);
    expect(provisioningCancelled(hostFor({ spec: { image: { ...image, url: 'http://127.0.0.1/b.raw' } }, status: registeredStatus('provisioned', { provisioning: { image } }) }))).toBe(true);
  });

  it('cancels a changed or removed custom deploy', () => {
    const deployed = registeredStatus('provisioned', { provisioning: { customDeploy: { method: 'a' } } });
    expect(provisioningCancelled(hostFor({ spec: { customDeploy: { method: 'a' } }, status: deployed }))).toBe(false);
    expect(provisioningCancelled(hostFor({ spec: { customDeploy: { method: 'b' } }, status: deployed }))).toBe(true);
    expect(provisioningCancelled(hostFor({ status: deployed }))).toBe(true);
  });
});
