import { describe, expect, it } from '@jest/globals';
import type { CleaningMode } from '../../api/index.ts';
import { clonedFromTemplate, machinesToSync } from './cloned-from.ts';

const GROUPKIND = 'Metal3MachineTemplate.infrastructure.cluster.x-k8s.io';
const machine = (name: string, annotations: Record<string, string>, mode?: CleaningMode) =>
  ({ metadata: { name, annotations }, spec: mode ? { automatedCleaningMode: mode } : {} });
const clone = (name: string, template: string, mode?: CleaningMode) =>
  machine(name, { 'cluster.x-k8s.io/cloned-from-name': template, 'cluster.x-k8s.io/cloned-from-groupkind': GROUPKIND }, mode);

describe('cloned-from template', () => {
  it('needs both annotations, with our group and kind', () => {
    expect(clonedFromTemplate(clone('a', 'tpl'))).toBe('tpl');
    expect(clonedFromTemplate(machine('a', { 'cluster.x-k8s.io/cloned-from-name': 'tpl' }))).toBeUndefined();
    expect(clonedFromTemplate(machine('a', { 'cluster.x-k8s.io/cloned-from-name': 'tpl',
      'cluster.x-k8s.io/cloned-from-groupkind': 'DockerMachineTemplate.infrastructure.cluster.x-k8s.io' }))).toBeUndefined();
    expect(clonedFromTemplate(machine('a', { 'cluster.x-k8s.io/cloned-from-groupkind': GROUPKIND }))).toBeUndefined();
  });

  it('picks the clones of this template whose mode differs', () => {
    const machines = [
      clone('differs', 'tpl', 'metadata'),
      clone('unset', 'tpl'),
      clone('same', 'tpl', 'disabled'),
      clone('other-template', 'tpl2', 'metadata'),
      machine('not-cloned', {}, 'metadata'),
    ];
    expect(machinesToSync(machines, { name: 'tpl', mode: 'disabled' }).map((m) => m.metadata.name)).toEqual(['differs', 'unset']);
  });

  it('imposes nothing when the template has no mode', () => {
    expect(machinesToSync([clone('a', 'tpl', 'metadata')], { name: 'tpl', mode: undefined })).toEqual([]);
  });
});
