"""An IPMI BMC on loopback for tests: one emulated server's power and boot device.

Built on pyghmi's BMC server class. Credentials come from the environment
(IPMI_BMC_USERNAME / IPMI_BMC_PASSWORD) so nothing secret is on the command line.
"""
import argparse
import os

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
        return self.powerstate == 'on'

    def get_boot_device(self):
        return self.bootdevice

    def set_boot_device(self, bootdevice):
        self.bootdevice = bootdevice
        print(f'boot device {bootdevice}', flush=True)

    def cold_reset(self):
        print('BMC cold reset ignored', flush=True)


def main():
    parser = argparse.ArgumentParser(description='IPMI BMC emulator bound to loopback')
    parser.add_argument('--port', type=int, required=True)
    args = parser.parse_args()
    username = os.environ['IPMI_BMC_USERNAME']
    password = os.environ['IPMI_BMC_PASSWORD']
    # pyghmi opens an IPv6 socket; the v4-mapped loopback keeps it off every other interface.
    address = '::ffff:127.0.0.1'
    server = LoopbackBmc({username: password}, port=args.port, address=address)
    print(f'ipmi bmc listening on 127.0.0.1:{args.port}', flush=True)
    server.listen()


if __name__ == '__main__':
    main()
