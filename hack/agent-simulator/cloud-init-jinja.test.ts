import { describe, expect, it } from '@jest/globals';
import { renderUserData } from './cloud-init-jinja.ts';

const META_DATA = { uuid: 'c0ffee00-0000-4000-8000-000000000001', 'local-hostname': 'host-1', name: 'machine-1', 'metal3-namespace': 'ns' };

describe('renderUserData', () => {
  it('renders the lookups of a Jinja template against the meta_data and drops the header', () => {
    const template = '## template: jinja\n#cloud-config\nhostname: {{ ds.meta_data.name }}\n'
      + "label: metal3.io/uuid={{ds.meta_data['uuid']}}\nns: {{ ds.meta_data[\"metal3-namespace\"] }}\nv1: {{ v1.local_hostname }} {{ v1.instance_id }}\n";
    expect(renderUserData(template, META_DATA)).toBe(
      '#cloud-config\nhostname: machine-1\nlabel: metal3.io/uuid=c0ffee00-0000-4000-8000-000000000001\nns: ns\nv1: host-1 c0ffee00-0000-4000-8000-000000000001\n');
  });

  it('offers hyphenated keys with underscores too, as cloud-init does, without hiding a key of that name', () => {
    expect(renderUserData('## template: jinja\n{{ ds.meta_data.local_hostname }}', META_DATA)).toBe('host-1');
    expect(renderUserData('## template: jinja\n{{ ds.meta_data.local_hostname }}', { 'local-hostname': 'a', local_hostname: 'b' })).toBe('b');
  });

  it('renders what the instance data lacks as cloud-init\'s missing-variable marker', () => {
    expect(renderUserData('## Template: JINJA\nx={{ ds.meta_data.nothing }} y={{ ds.other.deeper }} z={{ unknown }}', META_DATA))
      .toBe('x=CI_MISSING_JINJA_VAR/nothing y=CI_MISSING_JINJA_VAR/other z=CI_MISSING_JINJA_VAR/unknown');
  });

  it('leaves user data without the header alone, braces and all', () => {
    const plain = '#cloud-config\nruncmd:\n- echo {{ ds.meta_data.name }}\n';
    expect(renderUserData(plain, META_DATA)).toBe(plain);
    expect(renderUserData(undefined, META_DATA)).toBeUndefined();
  });
});
