"""Reads a switch configuration file the way Ironic's networking service does at start-up.

Ironic's own NetworkingDriverAdapter parses the [switch:...] sections, refuses any that lack
what Ironic needs, and translates them for the generic-switch driver; the translated sections
are printed as JSON. Runs in the stack's Ironic virtualenv.
"""
import configparser
import json
import os
import sys
import tempfile

from ironic.conf import CONF
from ironic.drivers.modules.switch.generic_switch import GenericSwitchDriver
from ironic.networking.switch_drivers.driver_adapter import NetworkingDriverAdapter

CONF([], project='ironic')
CONF.set_override('switch_config_file', sys.argv[1], group='ironic_networking')
output = os.path.join(tempfile.mkdtemp(), 'switches.conf')
count = NetworkingDriverAdapter({'generic-switch': GenericSwitchDriver}).preprocess_config(output)
translated = configparser.ConfigParser()
translated.read(output)
print(json.dumps({'count': count, 'sections': {name: dict(translated[name]) for name in translated.sections()}}))
