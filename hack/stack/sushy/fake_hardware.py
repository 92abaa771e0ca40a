"""Hardware resources for sushy-tools' fake systems driver.

The fake driver keeps each system's dict as given in SUSHY_EMULATOR_FAKE_SYSTEMS but serves no
Processors or MemorySummary, and sushy-tools' Storage answers 500 for a system it has no storage
configuration for, so Ironic's out-of-band ``redfish`` inspection of a fake system fails.
Importing this module (from the emulator's config file) lets the driver answer from each
system's ``hardware`` entry (written by hack/stack/sushy-hardware.ts); ``storage_settings`` turns
the same entries into sushy-tools' static Storage, Drives and Volumes settings, and the drive
template here reports each drive's own media type, protocol, model and serial number.
Its controller does hardware RAID (``fake_raid``): Volumes are created with a RAID type and
member drives, and deleted.
"""

import os

import jinja2
import fake_raid
from sushy_tools import error
from sushy_tools.emulator import main as emulator
from sushy_tools.emulator.resources.systems import fakedriver

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'templates')


def _hardware(driver, identity):
    hardware = driver._get(identity).get('hardware')
    if not hardware:
        raise error.NotSupportedError('Not implemented')
    return hardware


def get_processors(self, identity):
    # The processor template links each one by 'Id'; sushy's libvirt driver only sets 'id'.
    return [dict(processor, Id=processor['id'])
            for processor in _hardware(self, identity)['processors']]


def get_total_cpus(self, identity):
    return sum(int(p['threads']) for p in _hardware(self, identity)['processors'])


def get_total_memory(self, identity):
    return _hardware(self, identity)['memory_gib']


def storage_settings(systems):
    """SUSHY_EMULATOR_STORAGE, _DRIVES and _VOLUMES for the systems' hardware."""
    storage, drives, volumes = {}, {}, {}
    for system in systems:
        hardware = system.get('hardware')
        if not hardware:
            continue
        entry = hardware['storage']
        storage[system['uuid']] = [{
            'Id': entry['id'],
            'Name': entry['name'],
            'StorageControllers': [
                {'MemberId': '0', 'Name': 'Integrated RAID Controller', 'SpeedGbps': 12,
                 'SupportedRAIDTypes': list(fake_raid.SUPPORTED_RAID_TYPES)},
            ],
            'Drives': [drive['Id'] for drive in entry['drives']],
        }]
        drives[(system['uuid'], entry['id'])] = entry['drives']
        volumes[(system['uuid'], entry['id'])] = []
    return storage, drives, volumes


fakedriver.FakeDriver.get_processors = get_processors
fakedriver.FakeDriver.get_total_cpus = get_total_cpus
fakedriver.FakeDriver.get_total_memory = get_total_memory
fake_raid.install(emulator.app)
# Our templates first (drive.json, storage.json, volume.json), sushy-tools' own for everything else.
emulator.app.jinja_loader = jinja2.ChoiceLoader([
    jinja2.FileSystemLoader(TEMPLATES), emulator.app.jinja_loader])
