"""Graceful shutdowns that the emulated server's software may ignore.

sushy-tools' fake driver powers a system off on `GracefulShutdown` as on `ForceOff`. On a real
server a graceful shutdown is the ACPI power button: the running OS decides whether it shuts
down, and a hung or misconfigured one does not. Loaded from sushy-emulator's config file
(`install(...)`), this asks the agent simulator, which plays that software
(`POST <simulator>/systems/<uuid>/graceful-shutdown` -> `{"shutsDown": bool}`), and leaves the
power alone when it says no; the request is still answered 204, as a BMC does. When the
simulator cannot be asked, the server shuts down, which is sushy-tools' own behaviour.
"""
import requests

from sushy_tools.emulator.resources.systems import fakedriver

ASK_TIMEOUT_SECONDS = 5


def _shuts_down(simulator_url, system_uuid, logger):
    url = f'{simulator_url.rstrip("/")}/systems/{system_uuid}/graceful-shutdown'
    try:
        response = requests.post(url, json={}, timeout=ASK_TIMEOUT_SECONDS)
        response.raise_for_status()
        return response.json().get('shutsDown', True) is not False
    except (requests.RequestException, ValueError) as error:
        logger.warning('could not ask %s about a graceful shutdown: %s', url, error)
        return True


def install(simulator_url):
    """Wraps the fake driver's power changes so a graceful shutdown asks the simulator first."""
    original = fakedriver.FakeDriver.set_power_state

    def set_power_state(self, identity, state):
        if state == 'GracefulShutdown':
            system_uuid = self.uuid(identity)
            if not _shuts_down(simulator_url, system_uuid, self._logger):
                self._logger.info('System "%s" ignored a graceful shutdown', system_uuid)
                return None
        return original(self, identity, state)

    fakedriver.FakeDriver.set_power_state = set_power_state
