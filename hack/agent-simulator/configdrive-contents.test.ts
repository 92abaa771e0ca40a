import { describe, expect, it } from '@jest/globals';
import { readConfigDriveContents } from './configdrive-contents.ts';
import { buildIso, requireMkisofs } from './test-support/mkisofs.ts';

const mkisofs = requireMkisofs();
/** openstacksdk's configdrive.pack, which Ironic's build_configdrive uses. */
const CONFIG_DRIVE_ARGS = ['-ldots', '-allow-lowercase', '-allow-multidot', '-l', '-publisher', 'metalsmith', '-J', '-r', '-V', 'config-2'];

describe('readConfigDriveContents', () => {
  it('reads meta_data.json and user_data of the latest version, as Ironic packs them', () => {
    const metaData = { uuid: '7c5b1a2e-0d7e-4c39-9f0a-3b1f2f9e6a10', 'local-hostname': 'host-a', name: 'host-a' };
    const iso = buildIso(mkisofs, {
      'openstack/2012-08-10/meta_data.json': JSON.stringify({ uuid: 'old' }),
      'openstack/latest/meta_data.json': JSON.stringify(metaData),
      'openstack/latest/user_data': '#cloud-config\nhostname: worker-0\n',
      'openstack/latest/network_data.json': '{"links": []}',
    }, CONFIG_DRIVE_ARGS);
    expect(readConfigDriveContents(iso)).toEqual({ metaData, userData: '#cloud-config\nhostname: worker-0\n', networkData: { links: [] } });
  });

  it('takes the newest dated version without latest, and no user data when there is none', () => {
    const iso = buildIso(mkisofs, {
      'openstack/2012-08-10/meta_data.json': '{"uuid": "old"}',
      'openstack/2018-08-27/meta_data.json': '{"uuid": "new"}',
    }, CONFIG_DRIVE_ARGS);
    expect(readConfigDriveContents(iso)).toEqual({ metaData: { uuid: 'new' }, userData: undefined, networkData: undefined });
  });

  it('answers undefined for anything else', () => {
    expect(readConfigDriveContents(Buffer.from('config drive of a node\n'))).toBeUndefined();
    expect(readConfigDriveContents(buildIso(mkisofs, { 'openstack/latest/meta_data.json': '[1]' }, CONFIG_DRIVE_ARGS))).toBeUndefined();
    expect(readConfigDriveContents(buildIso(mkisofs, { 'ec2/latest/meta-data.json': '{}' }, CONFIG_DRIVE_ARGS))).toBeUndefined();
  });
});
