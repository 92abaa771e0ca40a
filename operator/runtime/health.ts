/** A probe: resolves when healthy, throws (with a reason) when not. */
export type Check = () => void | Promise<void>;

export interface CheckReport {
  healthy: boolean;
  /** controller-runtime / apiserver style: `[+]name ok` / `[-]name failed: reason`. */
  body: string;
}

/** A named set of checks behind one endpoint (`/healthz` or `/readyz`). */
export class HealthChecks {
  readonly #endpoint: string;
  readonly #checks = new Map<string, Check>();

  constructor(endpoint: string) {
    this.#endpoint = endpoint;
  }

  add(name: string, check: Check): void {
    if (this.#checks.has(name)) throw new Error(`${this.#endpoint} check ${name} is already registered`);
    this.#checks.set(name, check);
  }

  async run(options: { verbose?: boolean; timeoutMs?: number } = {}): Promise<CheckReport> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const results = await Promise.all(
      [...this.#checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(check),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          return { name, ok: true, reason: '' };
        } catch (error) {
          return { name, ok: false, reason: error instanceof Error ? error.message : String(error) };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const healthy = results.every((r) => r.ok);
    if (healthy && !options.verbose) return { healthy, body: 'ok' };
    const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: ${r.reason}`));
    lines.push(healthy ? `${this.#endpoint} check passed` : `${this.#endpoint} check failed`);
    return { healthy, body: lines.join('\n') + '\n' };
  }
}
