import type { Kubectl } from '../../support/kubectl.ts';
import { StopWaiting, waitFor } from '../../support/wait-for.ts';

/** The parts of a BareMetalHost these tests read. */
export interface Host {
  metadata: { name: string; uid: string; finalizers?: string[] };
  spec: { architecture?: string; image?: { url: string } };
  status?: {
    operationalStatus?: string;
    errorType?: string;
    errorMessage?: string;
    errorCount?: number;
    poweredOn?: boolean;
    provisioning?: { state?: string; ID?: string; image?: { url: string } };
    hardware?: {
      cpu?: { arch?: string; count?: number };
      ramMebibytes?: number;
      nics?: { mac?: string }[];
      storage?: { name?: string; sizeBytes?: number }[];
      systemVendor?: { manufacturer?: string };
      hostname?: string;
    };
  };
}

export async function getHost(kubectl: Kubectl, namespace: string, name: string): Promise<Host | undefined> {
  const result = await kubectl.run(['get', 'bmh', name, '-n', namespace, '-o', 'json']);
  return result.code === 0 ? (JSON.parse(result.stdout) as Host) : undefined;
}

export interface WaitForHostOptions {
  timeoutMs: number;
  /** Fail at once when the host records an error other than the one awaited. */
  failOnError?: boolean;
}

/** Waits until `accept` holds for the host; the failure message shows its last status. */
export async function waitForHost(
  kubectl: Kubectl,
  namespace: string,
  name: string,
  accept: (host: Host) => boolean,
  options: WaitForHostOptions,
): Promise<Host> {
  let last: Host | undefined;
  try {
    return await waitFor(
      async () => {
        last = await getHost(kubectl, namespace, name);
        if (!last) return undefined;
        if (options.failOnError && last.status?.errorType && !accept(last)) {
          throw new StopWaiting(`${name} recorded ${last.status.errorType}: ${last.status.errorMessage}`);
        }
        return accept(last) ? last : undefined;
      },
      { timeoutMs: options.timeoutMs, intervalMs: 1_000, what: `host ${name}` },
    );
  } catch (error) {
    const status = JSON.stringify(last?.status ?? null);
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last status: ${status}`, { cause: error });
  }
}

export const inState = (state: string) => (host: Host) => host.status?.provisioning?.state === state;
