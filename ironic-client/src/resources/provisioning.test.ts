import { describe, expect, it } from '@jest/globals';
import { IronicBadRequestError, IronicNotAcceptableError } from '../errors.ts';
import { ironicError, NODE_UUID } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();
const path = `/v1/nodes/${NODE_UUID}/states/provision`;

describe('nodes.setProvisionState', () => {
  it('sends a bare verb', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'provide' }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'provide' });
  });

  it('deploys with a configdrive object and custom deploy steps', async () => {
    const { client } = await connectTestClient();
    const configdrive = {
      meta_data: { uuid: 'bmh-uid', 'metal3-namespace': 'metal3', name: 'worker-0' },
      user_data: '#cloud-config\n',
      network_data: { links: [], networks: [], services: [] },
    };
    const deploySteps = [{ interface: 'deploy' as const, step: 'install_coreos', args: {}, priority: 80 }];
    // Ironic 39 refuses configdrive and deploy_steps with "deploy", its synonym of "active".
    ironic().put(path, { target: 'active', configdrive, deploy_steps: deploySteps }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'deploy', configdrive, deploySteps });
  });

  it('sends undeploy as deleted', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'deleted' }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'undeploy' });
  });

  it('accepts a configdrive URL or base64 string', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'active', configdrive: 'http://images/configdrive.iso' }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'active', configdrive: 'http://images/configdrive.iso' });
  });

  it('cleans with manual steps and without the ramdisk', async () => {
    const { client } = await connectTestClient();
    const cleanSteps = [
      { interface: 'raid' as const, step: 'delete_configuration' },
      { interface: 'bios' as const, step: 'apply_configuration', args: { settings: [{ name: 'ProcTurboMode', value: 'Disabled' }] } },
    ];
    ironic().put(path, { target: 'clean', clean_steps: cleanSteps, disable_ramdisk: true }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'clean', cleanSteps, disableRamdisk: true });
  });

  it('services with service steps', async () => {
    const { client } = await connectTestClient();
    const serviceSteps = [{ interface: 'firmware' as const, step: 'update', args: { settings: [{ component: 'bmc', url: 'http://fw/bmc.bin' }] } }];
    ironic().put(path, { target: 'service', service_steps: serviceSteps }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'service', serviceSteps });
  });

  it('rescues with a password, or uses a runbook', async () => {
    const { client } = await connectTestClient();
    ironic().put(path, { target: 'rescue', rescue_password: 'pw' }).reply(202).put(path, { target: 'clean', runbook: 'CUSTOM_RB' }).reply(202);
    await client.nodes.setProvisionState(NODE_UUID, { target: 'rescue', rescuePassword: 'pw' });
    await client.nodes.setProvisionState(NODE_UUID, { target: 'clean', runbook: 'CUSTOM_RB' });
  });

  it('surfaces an invalid transition as a bad request', async () => {
    const { client } = await connectTestClient();
    const message = `The requested action "deploy" can not be performed on node "${NODE_UUID}" while it is in state "enroll".`;
    ironic().put(path).reply(400, ironicError(message));
    const error = await client.nodes.setProvisionState(NODE_UUID, { target: 'deploy' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IronicBadRequestError);
    expect((error as IronicBadRequestError).faultstring).toBe(message);
    expect((error as IronicBadRequestError).request?.route).toBe('/v1/nodes/{node_ident}/states/provision');
  });

  it('surfaces a verb the microversion does not allow as not acceptable', async () => {
    const { client } = await connectTestClient({ serverMax: '1.109' });
    ironic('1.109').put(path).reply(406, { error_message: JSON.stringify({ faultcode: 'Client', faultstring: 'Request not acceptable.' }) });
    await expect(client.nodes.setProvisionState(NODE_UUID, { target: 'abort' })).rejects.toBeInstanceOf(IronicNotAcceptableError);
  });
});
