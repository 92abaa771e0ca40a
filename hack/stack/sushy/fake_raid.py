"""Hardware RAID on the fake systems' storage controller, for Ironic's ``redfish`` raid interface.

sushy-tools keeps only Name, VolumeType and CapacityBytes of a posted Volume, cannot delete one,
and its fake driver cannot look volumes up. A RAID controller keeps the RAID type and the member
drives, sizes a volume posted without CapacityBytes (Ironic's ``MAX``) from its drives, and
deletes volumes. The Volumes collection announces no OperationApplyTime, so Ironic creates and
deletes volumes at once, without a reboot.
"""

import itertools

import flask
from sushy_tools import error
from sushy_tools.emulator import api_utils
from sushy_tools.emulator.resources.systems import fakedriver

SUPPORTED_RAID_TYPES = ('RAID0', 'RAID1', 'RAID5', 'RAID10')
MIN_DRIVES = {'RAID0': 1, 'RAID1': 2, 'RAID5': 3, 'RAID10': 4}
_ids = itertools.count(1)


def _usable_bytes(raid_type, sizes):
    smallest, count = min(sizes), len(sizes)
    if raid_type == 'RAID0':
        return smallest * count
    if raid_type == 'RAID1':
        return smallest
    if raid_type == 'RAID5':
        return smallest * (count - 1)
    return smallest * count // 2


def _drive_id(link):
    return str(link.get('@odata.id', '')).rstrip('/').split('/')[-1]


def _create_volume(app, identity, storage_id):
    uuid = app.systems.uuid(identity)
    body = flask.request.get_json(force=True) or {}
    raid_type = body.get('RAIDType')
    if raid_type not in SUPPORTED_RAID_TYPES:
        raise error.BadRequest('RAIDType must be one of %s' % ', '.join(SUPPORTED_RAID_TYPES))
    drives = {drive['Id']: drive for drive in app.drives.get_drives(uuid, storage_id) or []}
    members = [_drive_id(link) for link in body.get('Links', {}).get('Drives', [])]
    unknown = [member for member in members if member not in drives]
    if unknown or not members:
        raise error.BadRequest('Links.Drives must name drives of storage %s, got %s' % (storage_id, members))
    if len(members) < MIN_DRIVES[raid_type]:
        raise error.BadRequest('%s needs at least %d drives' % (raid_type, MIN_DRIVES[raid_type]))
    usable = _usable_bytes(raid_type, [int(drives[member]['CapacityBytes']) for member in members])
    capacity = body.get('CapacityBytes') or usable
    if capacity > usable:
        raise error.BadRequest('CapacityBytes %d exceeds the %d bytes the drives offer' % (capacity, usable))
    volume_id = 'Volume.%d' % next(_ids)
    volume = {
        'Id': volume_id,
        'Name': body.get('Name') or volume_id,
        'VolumeType': body.get('VolumeType') or 'RawDevice',
        'RAIDType': raid_type,
        'CapacityBytes': capacity,
        'Drives': members,
    }
    app.volumes.add_volume(uuid, storage_id, volume)
    app.logger.info('RAID volume %s (%s on %s) created on system %s', volume_id, raid_type, members, uuid)
    location = '/redfish/v1/Systems/%s/Storage/%s/Volumes/%s' % (identity, storage_id, volume_id)
    return flask.Response(status=201, headers={'Location': location})


def install(app):
    """Volume create (with RAID) and delete on every fake system's storage."""
    # The fake driver has no backend to create a volume in: every recorded volume exists.
    fakedriver.FakeDriver.find_or_create_storage_volume = lambda self, data: data['Id']
    list_volumes = app.view_functions['volumes_collection']

    @api_utils.ensure_instance_access
    @api_utils.returns_json
    def create_volume(identity, storage_id):
        return _create_volume(app, identity, storage_id)

    def volumes_collection(identity, storage_id):
        if flask.request.method == 'POST':
            return create_volume(identity=identity, storage_id=storage_id)
        return list_volumes(identity=identity, storage_id=storage_id)

    app.view_functions['volumes_collection'] = volumes_collection

    @app.route('/redfish/v1/Systems/<identity>/Storage/<stg_id>/Volumes/<vol_id>', methods=['DELETE'],
               endpoint='metal3_ts_delete_volume')
    @api_utils.ensure_instance_access
    @api_utils.returns_json
    def delete_volume(identity, stg_id, vol_id):
        uuid = app.systems.uuid(identity)
        for volume in app.volumes.get_volumes_col(uuid, stg_id) or []:
            if volume['Id'] == vol_id:
                app.volumes.delete_volume(uuid, stg_id, volume)
                app.logger.info('RAID volume %s deleted on system %s', vol_id, uuid)
                return '', 204
        raise error.NotFound()
