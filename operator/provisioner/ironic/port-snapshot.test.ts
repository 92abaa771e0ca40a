import { describe, expect, it } from '@jest/globals';
import { FakeClock } from '../../runtime/testing/fake-clock.ts';
import { PortSnapshot } from './port-snapshot.ts';
import type { ListedPort } from './port-snapshot.ts';

describe('PortSnapshot', () => {
  const NODE_A = 'node-a';
  const NODE_B = 'node-b';

  function snapshotOf(answers: Array<readonly ListedPort[] | Error>) {
    const clock = new FakeClock();
    let lists = 0;
    const snapshot = new PortSnapshot({
      clock,
      maxAgeMs: 60_000,
      listPorts: async () => {
        const answer = answers[lists++];
        if (answer === undefined) throw new Error('listed more often than the test expects');
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    return { clock, snapshot, lists: () => lists };
  }

  it('answers every node from one list, MACs in lower case, and a node without ports with none', async () => {
    const { snapshot, lists } = snapshotOf([
      [
        { node_uuid: NODE_A, address: 'AA:BB:CC:DD:EE:01' },
        { node_uuid: NODE_A, address: 'aa:bb:cc:dd:ee:02' },
        { node_uuid: NODE_B, address: 'aa:bb:cc:dd:ee:03' },
      ],
    ]);
    const [a, b, c] = await Promise.all([snapshot.macsOf(NODE_A), snapshot.macsOf(NODE_B), snapshot.macsOf('node-c')]);
    expect([...a]).toEqual(['aa:bb:cc:dd:ee:01', 'aa:bb:cc:dd:ee:02']);
    expect([...b]).toEqual(['aa:bb:cc:dd:ee:03']);
    expect([...c]).toEqual([]);
    expect(lists()).toBe(1);
  });

  it('lists again once the last list began more than maxAgeMs ago', async () => {
    const { clock, snapshot, lists } = snapshotOf([[], [{ node_uuid: NODE_A, address: 'aa:bb:cc:dd:ee:01' }]]);
    expect([...(await snapshot.macsOf(NODE_A))]).toEqual([]);
    await clock.advance(60_000);
    expect([...(await snapshot.macsOf(NODE_A))]).toEqual([]);
    expect(lists()).toBe(1);
    await clock.advance(1);
    expect([...(await snapshot.macsOf(NODE_A))]).toEqual(['aa:bb:cc:dd:ee:01']);
    expect(lists()).toBe(2);
  });

  it('hands a failed list to everyone waiting on it and keeps nothing of it', async () => {
    const { snapshot, lists } = snapshotOf([new Error('ironic is down'), [{ node_uuid: NODE_A, address: 'aa:bb:cc:dd:ee:01' }]]);
    const waiting = [snapshot.macsOf(NODE_A), snapshot.macsOf(NODE_B)];
    for (const answer of waiting) await expect(answer).rejects.toThrow('ironic is down');
    expect([...(await snapshot.macsOf(NODE_A))]).toEqual(['aa:bb:cc:dd:ee:01']);
    expect(lists()).toBe(2);
  });
});
