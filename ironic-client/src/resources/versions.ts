// Version discovery: GET / and GET /v1, sent without a microversion (the range is not known yet).
import { checkContract, rootVersionsContract, v1RootContract } from '../contract.ts';
import type { RootVersions, V1Root } from '../types.ts';
import type { CallResult, Transport } from '../transport.ts';

export interface VersionOperations {
  getRoot(): Promise<RootVersions>;
  getV1(): Promise<V1Root>;
}

export async function fetchV1(transport: Transport): Promise<CallResult<V1Root>> {
  const result = await transport.call('get', '/v1', {}, { unversioned: true });
  return { ...result, data: checkContract<V1Root>(v1RootContract, result.data, result.request) };
}

export async function fetchRoot(transport: Transport): Promise<RootVersions> {
  const result = await transport.call('get', '/', {}, { unversioned: true });
  return checkContract<RootVersions>(rootVersionsContract, result.data, result.request);
}

export function versionOperations(transport: Transport): VersionOperations {
  return {
    getRoot: () => fetchRoot(transport),
    getV1: async () => (await fetchV1(transport)).data,
  };
}
