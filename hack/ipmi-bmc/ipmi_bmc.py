"""An IPMI BMC on loopback for tests: one emulated server's power and boot device.

Built on pyghmi's BMC server class. Credentials come from the environment
(IPMI_BMC_USERNAME / IPMI_BMC_PASSWORD) so nothing secret is on the command line.

Alone it only remembers a power state and a boot device. With IPMI_BMC_REDFISH_SYSTEM
(a sushy-tools system URL; IPMI_BMC_REDFISH_USERNAME / _PASSWORD when it needs basic auth)
it is the IPMI side of that server's BMC, as a real BMC speaks both protocols: power and
boot device requests go to the emulated system, where the agent simulator plays the server
(boots the ramdisk on a network boot, the installed OS from disk).
"""
import argparse
import base64
import json
import os
import urllib.request

import pyghmi.ipmi.bmc as bmc


class LoopbackBmc(bmc.Bmc):
    def __init__(self, authdata, port, address):
        super().__init__(authdata, port=port, address=address)
        self.powerstate = 'off'
        self.bootdevice = 'default'

    def get_power_state(self):
        return self.powerstate

    def power_on(self):
        self.powerstate = 'on'
        print('power on', flush=True)

    def power_off(self):
        self.powerstate = 'off'
        print('power off', flush=True)

    def power_shutdown(self):
        self.powerstate = 'off'
        print('soft power off', flush=True)

    def power_reset(self):
        print('reset', flush=True)

    def power_cycle(self):
        self.powerstate = 'on'
        print('power cycle', flush=True)

    def is_active(self):
        return self.get_power_state() == 'on'

    def get_boot_device(self):
        return self.bootdevice

    def set_boot_device(self, bootdevice):
        self.bootdevice = bootdevice
        print(f'boot device {bootdevice}', flush=True)

    def cold_reset(self):
        print('BMC cold reset ignored', flush=True)


# IPMI boot devices (pyghmi's names) and Redfish BootSourceOverrideTarget values.
REDFISH_TARGET = {'network': 'Pxe', 'hd': 'Hdd', 'optical': 'Cd', 'setup': 'BiosSetup', 'default': 'None',
                  'floppy': 'Usb', 'safe': 'Hdd'}
IPMI_DEVICE = {target: device for device, target in REDFISH_TARGET.items() if device not in ('floppy', 'safe')}


class RedfishBackedBmc(LoopbackBmc):
    """IPMI in front of one Redfish system: the same server, reached over the other protocol."""

    def __init__(self, authdata, port, address, system_url, redfish_auth):
        super().__init__(authdata, port, address)
        self.system_url = system_url.rstrip('/')
        self.headers = {'Content-Type': 'application/json', 'Accept': 'application/json'}
        if redfish_auth:
            token = base64.b64encode(f'{redfish_auth[0]}:{redfish_auth[1]}'.encode()).decode()
            self.headers['Authorization'] = f'Basic {token}'

    def _request(self, method, path='', body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.system_url + path, data=data, method=method, headers=self.headers)
        with urllib.request.urlopen(request, timeout=20) as response:
            text = response.read()
            return json.loads(text) if text else {}

    def _reset(self, reset_type):
        self._request('POST', '/Actions/ComputerSystem.Reset', {'ResetType': reset_type})
        print(f'reset {reset_type}', flush=True)

    def get_power_state(self):
        # Reading the system is also what makes sushy's fake driver apply a due power change.
        return 'on' if self._request('GET').get('PowerState') == 'On' else 'off'

    def power_on(self):
        self._reset('On')

    def power_off(self):
        self._reset('ForceOff')

    def power_shutdown(self):
        self._reset('GracefulShutdown')

    def power_reset(self):
        self._reset('ForceRestart')

    def power_cycle(self):
        self._reset('ForceRestart')

    def get_boot_device(self):
        target = self._request('GET').get('Boot', {}).get('BootSourceOverrideTarget') or 'None'
        return IPMI_DEVICE.get(target, 'default')

    def set_system_boot_options(self, request, session):
        # Boot flags (parameter 5): bit 6 of the first data byte asks for a persistent setting.
        if request['data'][0] == 5 and len(request['data']) > 1:
            self.persistent = bool(request['data'][1] & 0x40)
        return super().set_system_boot_options(request, session)

    def set_boot_device(self, bootdevice):
        enabled = 'Continuous' if getattr(self, 'persistent', False) else 'Once'
        self._request('PATCH', '', {'Boot': {'BootSourceOverrideTarget': REDFISH_TARGET.get(bootdevice, 'None'),
                                             'BootSourceOverrideEnabled': enabled}})
        print(f'boot device {bootdevice} ({enabled})', flush=True)


def main():
    parser = argparse.ArgumentParser(description='IPMI BMC emulator bound to loopback')
    parser.add_argument('--port', type=int, required=True)
    args = parser.parse_args()
    username = os.environ['IPMI_BMC_USERNAME']
    password = os.environ['IPMI_BMC_PASSWORD']
    # pyghmi opens an IPv6 socket; the v4-mapped loopback keeps it off every other interface.
    address = '::ffff:127.0.0.1'
    system_url = os.environ.get('IPMI_BMC_REDFISH_SYSTEM')
    if system_url:
        redfish_user = os.environ.get('IPMI_BMC_REDFISH_USERNAME')
        redfish_auth = (redfish_user, os.environ.get('IPMI_BMC_REDFISH_PASSWORD', '')) if redfish_user else None
        server = RedfishBackedBmc({username: password}, args.port, address, system_url, redfish_auth)
        print(f'ipmi bmc for {system_url}', flush=True)
    else:
        server = LoopbackBmc({username: password}, port=args.port, address=address)
    print(f'ipmi bmc listening on 127.0.0.1:{args.port}', flush=True)
    server.listen()


if __name__ == '__main__':
    main()
