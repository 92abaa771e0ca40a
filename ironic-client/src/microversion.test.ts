import { describe, expect, it } from '@jest/globals';
import { chooseMicroversion, compareMicroversions, featuresAt, parseMinor } from './microversion.ts';

describe('microversion choice', () => {
  it.each([
    ['1.115', '1.110'],
    ['1.110', '1.110'],
    ['1.109', '1.109'],
    ['1.108', '1.95'],
    ['1.96', '1.95'],
    ['1.95', '1.95'],
    ['1.94', '1.93'],
    ['1.93', '1.93'],
    ['1.92', '1.89'],
    ['1.89', '1.89'],
  ])('server max %s gives %s', (max, expected) => {
    expect(chooseMicroversion({ min: '1.1', max })).toBe(expected);
  });

  it('refuses a server below the 1.89 floor', () => {
    expect(chooseMicroversion({ min: '1.1', max: '1.88' })).toBeUndefined();
    expect(chooseMicroversion({ min: '1.1', max: '1.82' })).toBeUndefined();
  });

  it('respects the server minimum too', () => {
    expect(chooseMicroversion({ min: '1.100', max: '1.105' })).toBeUndefined();
    expect(chooseMicroversion({ min: '1.94', max: '1.96' })).toBe('1.95');
  });

  it('compares minor numbers numerically, not as text', () => {
    expect(compareMicroversions('1.110', '1.95')).toBeGreaterThan(0);
    expect(parseMinor(' 1.9 ')).toBe(9);
    expect(() => parseMinor('2.1')).toThrow(/not an Ironic v1 microversion/);
    expect(() => parseMinor('latest')).toThrow();
  });

  it('maps each chosen version to the features BMO uses it for', () => {
    expect(featuresAt('1.89')).toEqual({
      virtualMediaAttach: true,
      virtualMediaGet: false,
      disablePowerOff: false,
      nodeHealth: false,
      deployWaitAbort: false,
    });
    expect(featuresAt('1.95')).toMatchObject({ virtualMediaGet: true, disablePowerOff: true, nodeHealth: false });
    expect(featuresAt('1.109')).toMatchObject({ nodeHealth: true, deployWaitAbort: false });
    expect(Object.values(featuresAt('1.110')).every(Boolean)).toBe(true);
  });
});
