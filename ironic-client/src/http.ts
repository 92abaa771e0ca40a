// The axios instance: one per client, holding the timeout and fixed headers. The agents go with
// each request (connection-material.ts), so renewed TLS material takes effect.
import axios from 'axios';
import type { AxiosInstance } from 'axios';
import type { CompiledOptions } from './options.ts';

export function createHttpClient(options: Pick<CompiledOptions, 'timeoutMs' | 'userAgent'>): AxiosInstance {
  return axios.create({
    timeout: options.timeoutMs,
    // Ironic sits on a management network; HTTP(S)_PROXY from the environment is not for it.
    proxy: false,
    // Ironic never redirects; refusing keeps the Authorization header on the one host.
    maxRedirects: 0,
    // Every status comes back as a response; the transport maps errors itself.
    validateStatus: () => true,
    transitional: { clarifyTimeoutError: true },
    headers: { Accept: 'application/json', 'User-Agent': options.userAgent },
  });
}
