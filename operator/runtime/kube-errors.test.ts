import { describe, it, expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import {
  KubeStatusError,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNamespaceTerminating,
  isNotFound,
  toKubeError,
} from './kube-errors.ts';

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

describe('toKubeError', () => {
  it('parses the raw JSON string body client-node 2.x puts in ApiException', () => {
    const err = new ApiException(404, 'Unsuccessful HTTP Request', status(404, 'NotFound', 'hosts "h1" not found'), {});
    expect(toKubeError(err)).toEqual({ code: 404, reason: 'NotFound', message: 'hosts "h1" not found', causes: [] });
    expect(isNotFound(err)).toBe(true);
    expect(isConflict(err)).toBe(false);
  });

  it('tells Conflict and AlreadyExists apart although both are 409', () => {
    const conflict = new ApiException(409, 'x', status(409, 'Conflict', 'the object has been modified'), {});
    const exists = new ApiException(409, 'x', status(409, 'AlreadyExists', 'already exists'), {});
    expect(isConflict(conflict)).toBe(true);
    expect(isAlreadyExists(conflict)).toBe(false);
    expect(isConflict(exists)).toBe(false);
    expect(isAlreadyExists(exists)).toBe(true);
  });

  it('reads causes from an already-parsed body', () => {
    const body = { code: 422, reason: 'Invalid', message: 'bad', details: { causes: [{ field: 'spec.x', message: 'm' }] } };
    const err = new ApiException(422, 'x', body, {});
    expect(toKubeError(err).causes).toEqual([{ field: 'spec.x', message: 'm' }]);
    expect(isInvalid(err)).toBe(true);
  });

  it('falls back to a reason derived from the status code when the body is not JSON', () => {
    const err = new ApiException(409, 'x', 'plain text', {});
    expect(toKubeError(err)).toMatchObject({ code: 409, reason: 'Conflict', message: 'plain text' });
  });

  it('handles watch errors that carry statusCode and Status objects from ERROR events', () => {
    const watchError = Object.assign(new Error('Gone'), { statusCode: 410 });
    expect(isGone(watchError)).toBe(true);
    const expired = new KubeStatusError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    expect(toKubeError(expired)).toMatchObject({ code: 410, reason: 'Expired', message: 'too old resource version' });
    expect(isGone(expired)).toBe(true);
  });

  it('maps network errors to code 0', () => {
    expect(toKubeError(new Error('ECONNREFUSED'))).toEqual({ code: 0, reason: 'Unknown', message: 'ECONNREFUSED', causes: [] });
    expect(isNotFound(new Error('x'))).toBe(false);
  });
});

describe('isNamespaceTerminating', () => {
  it('is the 403 whose cause says the namespace is being deleted, not any other refusal', () => {
    const terminating = JSON.stringify({ kind: 'Status', code: 403, reason: 'Forbidden',
      details: { causes: [{ reason: 'NamespaceTerminating', field: 'metadata.namespace', message: 'namespace ns is being terminated' }] } });
    expect(isNamespaceTerminating(new ApiException(403, 'forbidden', terminating, {}))).toBe(true);
    expect(isNamespaceTerminating(new ApiException(403, 'forbidden', status(403, 'Forbidden', 'RBAC says no'), {}))).toBe(false);
    expect(isNamespaceTerminating(new ApiException(404, 'not found', status(404, 'NotFound', 'gone'), {}))).toBe(false);
  });
});
