import type { IndexEntry, Metal3Data } from '../api/index.ts';

/** The lowest index not taken: freed indexes are reused before new ones are given out (CAPM3's rule). */
export function lowestFreeIndex(taken: Iterable<number>): number {
  const used = new Set(taken);
  let index = 0;
  while (used.has(index)) index++;
  return index;
}

/** `<template>-<index>`: the Metal3Data name for a claim's index. */
export function dataName(templateName: string, index: number): string {
  return `${templateName}-${index}`;
}

/** The template's status.indexes: one entry per Metal3Data made from it, by index. */
export function indexesOf(datas: readonly Metal3Data[], templateName: string): IndexEntry[] {
  return datas
    .filter((data) => data.spec.template?.name === templateName && data.spec.claim?.name && data.spec.index !== undefined)
    .map((data) => ({ name: data.spec.claim?.name ?? '', index: data.spec.index ?? 0 }))
    .sort((left, right) => left.index - right.index);
}
