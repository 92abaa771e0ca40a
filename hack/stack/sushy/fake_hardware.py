"""Hardware resources for sushy-tools' fake systems driver.

The fake driver keeps each system's dict as given in SUSHY_EMULATOR_FAKE_SYSTEMS but serves no
Processors, MemorySummary or SimpleStorage, so Ironic's out-of-band ``redfish`` inspection of a
fake system fails. Importing this module (from the emulator's config file) lets the driver
answer from the system's ``hardware`` entry (written by hack/stack/sushy-hardware.ts); systems
without one keep the driver's "not supported" answers.
"""

from sushy_tools import error
from sushy_tools.emulator.resources.systems import fakedriver


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


def get_simple_storage_collection(self, identity):
    return _hardware(self, identity)['simple_storage']


fakedriver.FakeDriver.get_processors = get_processors
fakedriver.FakeDriver.get_total_cpus = get_total_cpus
fakedriver.FakeDriver.get_total_memory = get_total_memory
fakedriver.FakeDriver.get_simple_storage_collection = (
    get_simple_storage_collection)
