// Shared nock setup for unit tests: no real network, no leftover interceptors.
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import nock from 'nock';

export function useNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}
