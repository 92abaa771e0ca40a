/** Why host configuration data (user/network/meta data) could not be used. */
export type HostConfigErrorKind = 'cross-namespace' | 'secret-not-found' | 'missing-key' | 'not-a-map';

/** Names the Secret and key involved; never includes the Secret's content. */
export class HostConfigError extends Error {
  readonly kind: HostConfigErrorKind;
  readonly secret: string;
  readonly key: string;

  constructor(options: { kind: HostConfigErrorKind; secret: string; key: string; message: string }) {
    super(options.message);
    this.name = 'HostConfigError';
    this.kind = options.kind;
    this.secret = options.secret;
    this.key = options.key;
  }
}

export type HostConfigResult<T> = { ok: true; value: T } | { ok: false; error: HostConfigError };
