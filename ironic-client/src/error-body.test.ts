import { describe, expect, it } from '@jest/globals';
import { errorFromResponse, parseErrorBody } from './error-body.ts';
import {
  IronicApiError,
  IronicBadRequestError,
  IronicConflictError,
  IronicNotAcceptableError,
  IronicNotFoundError,
  IronicServiceUnavailableError,
  isTransientIronicError,
} from './errors.ts';
import type { IronicRequestInfo } from './errors.ts';

const request: IronicRequestInfo = {
  method: 'PUT',
  route: '/v1/nodes/{node_ident}/states/provision',
  url: 'http://ironic.test:6385/v1/nodes/n1/states/provision',
  microversion: '1.110',
};

describe('parseErrorBody', () => {
  it('unwraps the JSON string inside error_message', () => {
    const body = {
      error_message: JSON.stringify({ faultcode: 'Client', faultstring: 'Node n1 is locked by host c0.', debuginfo: null }),
    };
    expect(parseErrorBody(body)).toEqual({ faultstring: 'Node n1 is locked by host c0.', faultcode: 'Client', debuginfo: undefined });
  });

  it('keeps the debuginfo traceback when Ironic sends one', () => {
    const body = { error_message: JSON.stringify({ faultcode: 'Server', faultstring: 'boom', debuginfo: 'Traceback...' }) };
    expect(parseErrorBody(body)).toMatchObject({ faultcode: 'Server', debuginfo: 'Traceback...' });
  });

  it('accepts error_message as an object', () => {
    expect(parseErrorBody({ error_message: { faultstring: 'already exists', faultcode: 'Client' } }).faultstring).toBe('already exists');
  });

  it('reads the WebOb variant with description', () => {
    const body = {
      error_message: JSON.stringify({ code: 406, title: 'Not Acceptable', description: 'Version 1.200 was requested but ...' }),
    };
    expect(parseErrorBody(body).faultstring).toBe('Version 1.200 was requested but ...');
  });

  it('reads a bare description body', () => {
    expect(parseErrorBody({ code: 406, title: 'Not Acceptable', description: 'range is [1.1, 1.115]' }).faultstring).toBe(
      'range is [1.1, 1.115]',
    );
  });

  it('falls back to the raw error_message text when it is not JSON', () => {
    expect(parseErrorBody({ error_message: '<html>Bad Gateway</html>' }).faultstring).toBe('<html>Bad Gateway</html>');
  });

  it('parses a body axios left as text', () => {
    const text = JSON.stringify({ error_message: JSON.stringify({ faultstring: 'nope' }) });
    expect(parseErrorBody(text).faultstring).toBe('nope');
    expect(parseErrorBody('  plain failure \n').faultstring).toBe('plain failure');
  });

  it('reads the http_basic middleware\'s {"error": {"message"}} body', () => {
    expect(parseErrorBody({ error: { message: 'Incorrect username or password', code: 401 } })).toEqual({
      faultstring: 'Incorrect username or password',
    });
    expect(parseErrorBody('{"error":{"message":"Authorization required","code":401}}').faultstring).toBe('Authorization required');
  });

  it('copes with empty and unknown bodies', () => {
    expect(parseErrorBody(undefined).faultstring).toBe('(empty error body)');
    expect(parseErrorBody('').faultstring).toBe('(empty error body)');
    expect(parseErrorBody({ unexpected: true }).faultstring).toBe('{"unexpected":true}');
  });
});

describe('errorFromResponse', () => {
  const fault = (faultstring: string) => ({ error_message: JSON.stringify({ faultcode: 'Client', faultstring, debuginfo: null }) });

  it.each([
    [400, IronicBadRequestError, 'bad_request'],
    [404, IronicNotFoundError, 'not_found'],
    [406, IronicNotAcceptableError, 'not_acceptable'],
    [409, IronicConflictError, 'conflict'],
    [503, IronicServiceUnavailableError, 'service_unavailable'],
  ] as const)('maps %i to its class', (status, type, kind) => {
    const error = errorFromResponse(status, fault('x'), request);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(IronicApiError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [500, 'api'],
  ] as const)('keeps %i a generic API error with kind %s', (status, kind) => {
    const error = errorFromResponse(status, fault('x'), request);
    expect(error).toBeInstanceOf(IronicApiError);
    expect(error.kind).toBe(kind);
    expect(error.name).toBe('IronicApiError');
    expect(error.transient).toBe(false);
  });

  it('says that authentication failed on a 401, without the request headers', () => {
    const error = errorFromResponse(401, { error: { message: 'Incorrect username or password', code: 401 } }, request);
    expect(error.kind).toBe('unauthorized');
    expect(error.faultstring).toBe('Incorrect username or password');
    expect(error.message).toBe(
      'Ironic PUT http://ironic.test:6385/v1/nodes/n1/states/provision returned 401: authentication failed: Incorrect username or password',
    );
    expect(JSON.stringify(error)).not.toMatch(/authorization/i);
  });

  it('tells a NodeLocked conflict from a permanent one', () => {
    const locked = errorFromResponse(409, fault('Node n1 is locked by host conductor-1, please retry after the current operation is completed.'), request);
    const duplicate = errorFromResponse(409, fault('A port with MAC address 52:54:00:00:00:01 already exists.'), request);
    expect(locked).toBeInstanceOf(IronicConflictError);
    expect((locked as IronicConflictError).locked).toBe(true);
    expect(isTransientIronicError(locked)).toBe(true);
    expect((duplicate as IronicConflictError).locked).toBe(false);
    expect(isTransientIronicError(duplicate)).toBe(false);
  });

  it('describes the call and keeps Ironic\'s message', () => {
    const error = errorFromResponse(400, fault('The requested action "deploy" can not be performed on node "n1" while it is in state "enroll".'), request);
    expect(error.message).toBe(
      'Ironic PUT http://ironic.test:6385/v1/nodes/n1/states/provision returned 400: The requested action "deploy" can not be performed on node "n1" while it is in state "enroll".',
    );
    expect(error.request).toEqual(request);
    expect(error.faultcode).toBe('Client');
    expect(error.name).toBe('IronicBadRequestError');
  });
});
