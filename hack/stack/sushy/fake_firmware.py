# Gives sushy-tools' fake Redfish driver what its libvirt driver has and the fake one lacks:
# BIOS attributes (served with sushy-tools' own BIOS attribute registry) and firmware versions
# (what its UpdateService flashes). Loaded from the emulator's Python config file.
#
# Like a real BIOS, and unlike sushy-tools' libvirt driver, written attributes stay pending
# (served at /BIOS/Settings) until the server is next powered on. Every attribute applied and
# every version flashed is appended to the system's `firmware_record`, served read-only at
# /metal3-ts/firmware-record/<system uuid> for tests.
import copy
import time

import flask

from sushy_tools.emulator.resources.systems import fakedriver

# Typed like sushy-tools' registry (Integer, Boolean) so Ironic's checks compare like with like.
DEFAULT_BIOS_ATTRIBUTES = {
    "BootMode": "Uefi",
    "EmbeddedSata": "Raid",
    "L2Cache": "10x256 KB",
    "NicBoot1": "NetworkBoot",
    "NumCores": 10,
    "ProcTurboMode": "Enabled",
    "QuietBoot": True,
    "SecureBootStatus": "Enabled",
    "SerialNumber": "QPX12345",
    "SysPassword": "",
}
DEFAULT_FIRMWARE_VERSIONS = {"BiosVersion": "1.0.0"}


def _record(system, kind, **details):
    record = list(system.get("firmware_record") or [])
    record.append({"kind": kind, "at": time.time(), **details})
    return record


def get_bios(self, identity):
    system = self._get(identity)
    if "bios" not in system:
        self._update(system, bios=copy.deepcopy(DEFAULT_BIOS_ATTRIBUTES))
    return system["bios"]


def get_bios_pending(self, identity):
    return self._get(identity).get("bios_pending") or {}


def set_bios(self, identity, attributes):
    system = self._get(identity)
    pending = dict(system.get("bios_pending") or {})
    pending.update(attributes)
    self._update(system, bios_pending=pending,
                 firmware_record=_record(system, "bios-pending", attributes=dict(attributes)))


def reset_bios(self, identity):
    system = self._get(identity)
    self._update(system, bios=copy.deepcopy(DEFAULT_BIOS_ATTRIBUTES), bios_pending={},
                 firmware_record=_record(system, "bios-reset"))


def get_versions(self, identity):
    system = self._get(identity)
    if "firmware_versions" not in system:
        self._update(system, firmware_versions=copy.deepcopy(DEFAULT_FIRMWARE_VERSIONS))
    return system["firmware_versions"]


def set_versions(self, identity, firmware_versions):
    system = self._get(identity)
    versions = dict(get_versions(self, identity))
    versions.update(firmware_versions)
    self._update(system, firmware_versions=versions,
                 firmware_record=_record(system, "firmware-flashed", versions=dict(firmware_versions)))


def reset_versions(self, identity):
    self._update(identity, firmware_versions=copy.deepcopy(DEFAULT_FIRMWARE_VERSIONS))


_original_update_if_needed = fakedriver.FakeDriver._update_if_needed


def _update_if_needed(self, system):
    """A power-on (or restart) applies the pending BIOS attributes, as POST would."""
    pending_power = system.get("pending_power")
    powering_on = bool(pending_power) and time.time() >= pending_power["apply_time"]
    system = _original_update_if_needed(self, system)
    pending_bios = system.get("bios_pending")
    if powering_on and system.get("power_state") == "On" and pending_bios:
        bios = dict(system.get("bios") or DEFAULT_BIOS_ATTRIBUTES)
        bios.update(pending_bios)
        self._update(system, bios=bios, bios_pending={},
                     firmware_record=_record(system, "bios-applied", attributes=dict(pending_bios)))
    return system


fakedriver.FakeDriver.get_bios = get_bios
fakedriver.FakeDriver.get_bios_pending = get_bios_pending
fakedriver.FakeDriver.set_bios = set_bios
fakedriver.FakeDriver.reset_bios = reset_bios
fakedriver.FakeDriver.get_versions = get_versions
fakedriver.FakeDriver.set_versions = set_versions
fakedriver.FakeDriver.reset_versions = reset_versions
fakedriver.FakeDriver._update_if_needed = _update_if_needed


def install_record_route(app):
    """GET /metal3-ts/firmware-record/<uuid>: what the server's firmware went through."""

    @app.route("/metal3-ts/firmware-record/<identity>", methods=["GET"])
    def firmware_record(identity):
        system = app.systems._get(identity)
        return flask.jsonify({
            "bios": system.get("bios") or {},
            "biosPending": system.get("bios_pending") or {},
            "versions": system.get("firmware_versions") or DEFAULT_FIRMWARE_VERSIONS,
            "record": system.get("firmware_record") or [],
        })
