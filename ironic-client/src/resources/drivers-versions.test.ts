import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ENDPOINT, v1Root } from '../../test-support/fixtures.ts';
import { connectTestClient, ironic } from '../../test-support/ironic-mock.ts';
import { useNock } from '../../test-support/nock-lifecycle.ts';

useNock();

describe('drivers', () => {
  it('lists drivers, optionally in detail', async () => {
    const { client } = await connectTestClient();
    ironic()
      .get('/v1/drivers')
      .reply(200, { drivers: [{ name: 'redfish', hosts: ['conductor-0'], type: 'dynamic', links: [] }] })
      .get('/v1/drivers')
      .query({ detail: 'true', type: 'dynamic' })
      .reply(200, { drivers: [{ name: 'fake-hardware', hosts: ['conductor-0'], default_boot_interface: 'fake' }] });
    expect((await client.drivers.list()).map((driver) => driver.name)).toEqual(['redfish']);
    expect((await client.drivers.list({ detail: true, type: 'dynamic' }))[0]?.default_boot_interface).toBe('fake');
  });

  it('returns an empty list when no conductor is alive', async () => {
    const { client } = await connectTestClient();
    ironic().get('/v1/drivers').reply(200, { drivers: [] });
    expect(await client.drivers.list()).toEqual([]);
  });
});

describe('versions', () => {
  it('reads GET / and GET /v1 without a microversion', async () => {
    const { client } = await connectTestClient();
    const root = {
      name: 'OpenStack Ironic API',
      description: 'Ironic is an OpenStack project...',
      default_version: { id: 'v1', min_version: '1.1', version: '1.115', status: 'CURRENT', links: [] },
      versions: [{ id: 'v1', min_version: '1.1', version: '1.115', status: 'CURRENT', links: [] }],
    };
    nock(ENDPOINT, { badheaders: ['x-openstack-ironic-api-version'] }).get('/').reply(200, root).get('/v1').reply(200, v1Root('1.115'));
    expect((await client.versions.getRoot()).default_version.version).toBe('1.115');
    expect((await client.versions.getV1()).version.version).toBe('1.115');
  });
});
