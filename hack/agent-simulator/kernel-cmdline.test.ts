import { describe, expect, it } from '@jest/globals';
import { kernelParameterValues, parseKernelCommandLine } from './kernel-cmdline.ts';
import { ramdiskParameters } from './ramdisk-params.ts';

// Rendered by Ironic 39 for a cleaning boot over virtual media (image_utils._prepare_kernel_cmd_line).
const IRONIC_CLEANING =
  'ir_pub_id=6de37747-5835-408a-baa1-cac1323a5f43 ipa-api-url=http://127.0.0.1:6385 ' +
  'ipa-agent-token=zsUpmQGliRVkR7pPOuIXnj_iGsrsoGItDI96pCEp5po ipa-debug=1 boot_method=vmedia nofb vga=normal --';

describe('parseKernelCommandLine', () => {
  it('splits parameters, keeps flags and stops at --', () => {
    const parsed = parseKernelCommandLine(IRONIC_CLEANING);
    expect(parsed.parameters).toContainEqual({ key: 'nofb', value: undefined });
    expect(parsed.parameters).toContainEqual({ key: 'vga', value: 'normal' });
    expect(parsed.parameters.map((parameter) => parameter.key)).toHaveLength(7);
    expect(parsed.initArguments).toEqual([]);
    expect(parseKernelCommandLine('ro quiet -- single init=/bin/sh').initArguments).toEqual(['single', 'init=/bin/sh']);
  });

  it('keeps blanks inside double quotes and drops the quotes, as the kernel does', () => {
    const parsed = parseKernelCommandLine('  a="b c"\td "e=f g"  h= "--"  ');
    expect(parsed.parameters).toEqual([
      { key: 'a', value: 'b c' },
      { key: 'd', value: undefined },
      { key: 'e', value: 'f g' },
      { key: 'h', value: '' },
      // A quoted "--" is a parameter, not the separator.
      { key: '--', value: undefined },
    ]);
  });

  it('gives the last value of a repeated key and ignores flags, like IPA', () => {
    const values = kernelParameterValues(parseKernelCommandLine('x=1 flag x=2 y=a=b'));
    expect([...values]).toEqual([
      ['x', '2'],
      ['y', 'a=b'],
    ]);
  });
});

describe('ramdiskParameters', () => {
  it('takes the agent token, API URL and boot method Ironic puts on a virtual media ISO', () => {
    expect(ramdiskParameters(parseKernelCommandLine(IRONIC_CLEANING))).toEqual({
      agentToken: 'zsUpmQGliRVkR7pPOuIXnj_iGsrsoGItDI96pCEp5po',
      apiUrl: 'http://127.0.0.1:6385',
      bootMethod: 'vmedia',
    });
  });

  it('takes the inspection callback, normalises BOOTIF and ignores what it cannot use', () => {
    const parameters = ramdiskParameters(
      parseKernelCommandLine(
        'ipa-inspection-callback-url=http://127.0.0.1:6385/v1/continue_inspection BOOTIF=01-52-54-00-AB-cd-01 ipa-api-url=mdns ipa-agent-token=',
      ),
    );
    expect(parameters).toEqual({
      inspectionCallbackUrl: 'http://127.0.0.1:6385/v1/continue_inspection',
      bootInterfaceMac: '52:54:00:ab:cd:01',
    });
    expect(ramdiskParameters(parseKernelCommandLine('BOOTIF=52:54:00:AB:CD:02 ipa-api-url=http://a:1/,http://b:2')))
      .toEqual({ bootInterfaceMac: '52:54:00:ab:cd:02', apiUrl: 'http://a:1' });
    expect(ramdiskParameters(parseKernelCommandLine('BOOTIF=not-a-mac'))).toEqual({});
  });
});
