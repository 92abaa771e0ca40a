import { describe, expect, it } from '@jest/globals';
import { useNock } from '../../../ironic-client/test-support/nock-lifecycle.ts';
import { HOST, redfishBmc, startKit } from './testing/ironic-test-kit.ts';

useNock();

const node = (name: string, provisionState: string, bootInterface = 'ipxe') => ({
  uuid: '0f6d2a5e-97c5-4c55-8a55-1e2b3c4d5e6f',
  name,
  provision_state: provisionState,
  boot_interface: bootInterface,
  links: [],
});

describe('hasCapacity', () => {
  it('counts hosts in ramdisk states against the limit, ignoring virtual media', async () => {
    const kit = await startKit({ provisioner: { provisioningLimit: 2 } });
    kit.ironic
      .get('/v1/nodes')
      .query({ fields: 'uuid,name,provision_state,boot_interface' })
      .times(2)
      .reply(200, {
        nodes: [
          node('a~1', 'cleaning'),
          node('a~2', 'wait call-back'),
          node('a~3', 'inspect wait', 'redfish-virtual-media'),
          node('a~4', 'active'),
        ],
      });

    expect(await kit.provisioner.hasCapacity()).toBe(false);
    expect(await kit.provisioner.hasCapacity({ host: { namespace: 'a', name: '1', uid: 'x' } })).toBe(true);
  });

  it('has room below the limit', async () => {
    const kit = await startKit({ provisioner: { provisioningLimit: 2 } });
    kit.ironic.get('/v1/nodes').query(true).reply(200, { nodes: [node('a~1', 'deploying'), node('a~2', 'available')] });
    expect(await kit.provisioner.hasCapacity({ host: HOST })).toBe(true);
  });

  it('never limits virtual-media hosts and asks Ironic nothing for them', async () => {
    const kit = await startKit({ provisioner: { provisioningLimit: 1 } });
    const bmc = redfishBmc('redfish-virtualmedia+http://bmc.test/redfish/v1/Systems/1');
    expect(await kit.provisioner.hasCapacity({ host: HOST, bmc })).toBe(true);
    expect(kit.calls()).toEqual([]);
  });
});
