import type { Host } from './host.ts';

/** The operator's own CPU in `uname -p` spelling, BMO's last resort for a host's architecture. */
export function controllerArchitecture(arch: string = process.arch): string {
  if (arch === 'x64') return 'x86_64';
  if (arch === 'arm64') return 'aarch64';
  return arch;
}

/** spec.architecture, else what inspection found, else the operator's own. */
export function hostArchitecture(host: Host): string {
  return host.spec.architecture || host.status.hardware?.cpu?.arch || controllerArchitecture();
}
