const REQUEST_TIMEOUT_MS = 30_000;

export interface RedfishSystemState {
  powerState: string | undefined;
  /** BootSourceOverrideTarget: Pxe, Cd, Hdd, UefiHttp... */
  bootDevice: string | undefined;
  /** BootSourceOverrideMode: UEFI or Legacy; how the firmware starts what it boots. */
  bootMode: string | undefined;
}

/** A virtual media drive as the BMC reports it (VirtualMedia resource). */
export interface VirtualMediaState {
  /** URL of the inserted image; '' or undefined when empty. */
  image: string | undefined;
  inserted: boolean;
}

export type ResetType = 'On' | 'ForceOff' | 'GracefulShutdown' | 'ForceRestart' | 'GracefulRestart';

/** What the simulated server needs from its BMC (an interface so tests can stand in for sushy). */
export type Bmc = Pick<RedfishClient, 'getSystem' | 'reset' | 'getVirtualMedia'>;

/** The BMC calls the simulated server needs: read its state and virtual media, and press its power button. */
export class RedfishClient {
  readonly #baseUrl: string;
  readonly #authorization: string | undefined;

  constructor(options: { url: string; username?: string | undefined; password?: string | undefined }) {
    this.#baseUrl = options.url.replace(/\/+$/, '');
    this.#authorization =
      options.username === undefined
        ? undefined
        : `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
  }

  #headers(json: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (json) headers['Content-Type'] = 'application/json';
    if (this.#authorization !== undefined) headers.Authorization = this.#authorization;
    return headers;
  }

  /** Reading the system is also what makes sushy's fake driver apply a due pending power change. */
  async getSystem(systemUuid: string): Promise<RedfishSystemState> {
    const response = await fetch(`${this.#baseUrl}/redfish/v1/Systems/${encodeURIComponent(systemUuid)}`, {
      headers: this.#headers(false),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`Redfish GET system ${systemUuid}: HTTP ${response.status}`);
    const body = (await response.json()) as {
      PowerState?: string;
      Boot?: { BootSourceOverrideTarget?: string; BootSourceOverrideMode?: string };
    };
    return {
      powerState: body.PowerState,
      bootDevice: body.Boot?.BootSourceOverrideTarget,
      bootMode: body.Boot?.BootSourceOverrideMode,
    };
  }

  /** What is in a virtual media drive (sushy-tools serves them below the system, as many BMCs do). */
  async getVirtualMedia(systemUuid: string, device: string): Promise<VirtualMediaState> {
    const url = `${this.#baseUrl}/redfish/v1/Systems/${encodeURIComponent(systemUuid)}/VirtualMedia/${encodeURIComponent(device)}`;
    const response = await fetch(url, { headers: this.#headers(false), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`Redfish GET virtual media ${device} of system ${systemUuid}: HTTP ${response.status}`);
    const body = (await response.json()) as { Image?: string | null; Inserted?: boolean | null };
    return { image: body.Image ?? undefined, inserted: body.Inserted === true };
  }

  async reset(systemUuid: string, resetType: ResetType): Promise<void> {
    const url = `${this.#baseUrl}/redfish/v1/Systems/${encodeURIComponent(systemUuid)}/Actions/ComputerSystem.Reset`;
    const response = await fetch(url, {
      method: 'POST',
      headers: this.#headers(true),
      body: JSON.stringify({ ResetType: resetType }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) {
      throw new Error(`Redfish ${resetType} of system ${systemUuid}: HTTP ${response.status} ${await response.text()}`);
    }
  }
}
