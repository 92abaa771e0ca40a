import { describe, expect, it } from '@jest/globals';
import { IronicApiError, IronicConnectionError, IronicNotFoundError } from '../ironic-client/index.ts';
import { ProvisionerAccessDeniedError, ProvisionerNotReadyError, ProvisionerUnreachableError } from './controllers/baremetalhost/provisioner-not-ready.ts';
import { IronicAccessWatch, ironicAccessProblem, ironicUnreachableProblem } from './ironic-access.ts';
import { FixtureProvisioner } from './provisioner/fixture/index.ts';
import { TransientProvisionerError } from './provisioner/result.ts';
import { silentLogger } from './runtime/logger.ts';

const request = { method: 'GET', route: '/v1/nodes', url: 'https://127.0.0.1:6385/v1/nodes' };
const unauthorized = () => new IronicApiError({ status: 401, faultstring: 'Incorrect username or password' }, request);

describe('ironicAccessProblem', () => {
  it('names refused credentials and untrusted certificates, even wrapped as causes', () => {
    expect(ironicAccessProblem(new TransientProvisionerError('register', { cause: unauthorized() })))
      .toMatch(/refused the operator's credentials.*401: authentication failed/);
    expect(ironicAccessProblem(new IronicConnectionError('self-signed', 'SELF_SIGNED_CERT_IN_CHAIN', request)))
      .toMatch(/TLS certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN/);
  });

  it('leaves other failures alone', () => {
    expect(ironicAccessProblem(new IronicNotFoundError({ status: 404, faultstring: 'gone' }, request))).toBeUndefined();
    expect(ironicAccessProblem(new IronicConnectionError('refused', 'ECONNREFUSED', request))).toBeUndefined();
    expect(ironicAccessProblem(new Error('boom'))).toBeUndefined();
  });
});

describe('IronicAccessWatch', () => {
  it('fails readiness and turns calls into ProvisionerAccessDeniedError while Ironic refuses, until a call gets through', async () => {
    const watch = new IronicAccessWatch(silentLogger());
    const inner = new FixtureProvisioner();
    let refuse = true;
    const hardwareState = inner.hardwareState.bind(inner);
    inner.hardwareState = async (options) => {
      if (refuse) throw new TransientProvisionerError('reading the node', { cause: unauthorized() });
      return hardwareState(options);
    };
    const provisioner = watch.wrap(inner);
    const host = { namespace: 'ns', name: 'h', uid: 'u' } as Parameters<typeof inner.hardwareState>[0]['host'];

    expect(() => watch.check()).not.toThrow();
    await expect(provisioner.hardwareState({ host })).rejects.toBeInstanceOf(ProvisionerAccessDeniedError);
    expect(() => watch.check()).toThrow(/credentials/);
    refuse = false;
    await provisioner.hardwareState({ host });
    expect(() => watch.check()).not.toThrow();
  });

  it('passes other failures through unchanged', async () => {
    const watch = new IronicAccessWatch(silentLogger());
    const inner = new FixtureProvisioner();
    const outage = new TransientProvisionerError('ironic down');
    inner.powerOn = () => Promise.reject(outage);
    await expect(watch.wrap(inner).powerOn({} as never)).rejects.toBe(outage);
    expect(() => watch.check()).not.toThrow();
  });

  it('passes health through, read without a call', async () => {
    const inner = new FixtureProvisioner();
    const host = { namespace: 'ns', name: 'h', uid: 'u' } as Parameters<typeof inner.health>[0]['host'];
    inner.host(host).health = 'Critical';
    expect(new IronicAccessWatch(silentLogger()).wrap(inner).health({ host })).toBe('Critical');
  });
});

describe('Ironic not answering', () => {
  const refused = () => new IronicConnectionError('connect ECONNREFUSED 127.0.0.1:6385', 'ECONNREFUSED', { ...request, url: 'https://127.0.0.1:6385/v1/nodes/abc?fields=uuid' });
  const host = { namespace: 'ns', name: 'h', uid: 'u' } as Parameters<FixtureProvisioner['powerOn']>[0]['host'];

  it('is named with the endpoint and the code only, so every call says the same', () => {
    expect(ironicUnreachableProblem(new TransientProvisionerError('reading the node', { cause: refused() })))
      .toBe('Ironic at https://127.0.0.1:6385 is unreachable (ECONNREFUSED)');
    expect(ironicUnreachableProblem(new IronicNotFoundError({ status: 404, faultstring: 'gone' }, request))).toBeUndefined();
  });

  it('turns calls into ProvisionerUnreachableError, keeping the retry delay, without failing readiness', async () => {
    const watch = new IronicAccessWatch(silentLogger());
    const inner = new FixtureProvisioner();
    inner.powerOn = () => Promise.reject(new TransientProvisionerError('power on', { cause: refused(), retryAfterMs: 1234 }));
    const error = await watch.wrap(inner).powerOn({ host } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProvisionerUnreachableError);
    expect((error as ProvisionerUnreachableError).retryAfterMs).toBe(1234);
    expect((error as Error).message).toMatch(/^Ironic at https:\/\/127.0.0.1:6385 is unreachable \(ECONNREFUSED\): the host keeps its state/);
    expect(() => watch.check()).not.toThrow();
  });

  it('leaves "not connected yet" to BMO\'s not-ready handling', async () => {
    const watch = new IronicAccessWatch(silentLogger());
    const inner = new FixtureProvisioner();
    const notReady = new ProvisionerNotReadyError('provisioner is not ready', { cause: refused() });
    inner.powerOn = () => Promise.reject(notReady);
    await expect(watch.wrap(inner).powerOn({ host } as never)).rejects.toBe(notReady);
  });
});
