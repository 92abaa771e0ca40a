"""Loaded by the stack's Ironic processes (PYTHONPATH) before Ironic itself.

Ironic 39's Redfish driver keys its session cache with a PBKDF2-SHA512 digest of the BMC password
at 600,000 iterations, computed again on every call to a BMC (power sync, boot mode, health...):
about 0.3-0.8 s of CPU each, which made three quarters of Ironic's CPU time in a full test run on
two cores. The derivation is a pure function, so remembering its results changes no answer; it
only stops the same digest being computed again for the same password and BMC address.
"""

import functools
import hashlib

if not getattr(hashlib.pbkdf2_hmac, "metal3_ts_memoized", False):
    _derive = functools.lru_cache(maxsize=1024)(hashlib.pbkdf2_hmac)

    def pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
        return _derive(hash_name, bytes(password), bytes(salt), iterations, dklen)

    pbkdf2_hmac.metal3_ts_memoized = True
    hashlib.pbkdf2_hmac = pbkdf2_hmac
