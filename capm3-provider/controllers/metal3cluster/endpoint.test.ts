import { describe, expect, it } from '@jest/globals';
import { defaultedPort, endpointProblem } from './endpoint.ts';

describe('control plane endpoint', () => {
  it('defaults the port to 6443 only when it is missing', () => {
    expect(defaultedPort({ controlPlaneEndpoint: { host: '192.0.2.10' } })).toBe(6443);
    expect(defaultedPort({})).toBe(6443);
    expect(defaultedPort({ controlPlaneEndpoint: { host: '192.0.2.10', port: 7443 } })).toBeUndefined();
  });

  it('names the missing host field', () => {
    expect(endpointProblem({})).toMatch(/spec\.controlPlaneEndpoint\.host is required/);
    expect(endpointProblem({ controlPlaneEndpoint: { port: 6443 } })).toMatch(/spec\.controlPlaneEndpoint\.host/);
    expect(endpointProblem({ controlPlaneEndpoint: { host: '  ', port: 6443 } })).toMatch(/spec\.controlPlaneEndpoint\.host/);
  });

  it('requires a port once defaulting had its chance', () => {
    expect(endpointProblem({ controlPlaneEndpoint: { host: 'api.example.test' } })).toMatch(/spec\.controlPlaneEndpoint\.port/);
  });

  it('accepts host and port', () => {
    expect(endpointProblem({ controlPlaneEndpoint: { host: 'api.example.test', port: 6443 } })).toBeUndefined();
  });
});
