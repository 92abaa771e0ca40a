import type { HostUnderValidation } from './validation-context.ts';
import type { Violation } from '../../runtime/index.ts';

// google/uuid's Parse also takes braces and `urn:uuid:`, which the character rule already refuses.
const UUID_FORMS = [/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, /^[0-9a-f]{32}$/i];

/** The name becomes the Ironic node name, which Ironic must not mistake for a node UUID. */
export function nameViolations({ host }: HostUnderValidation): Violation[] {
  const name = host.metadata.name ?? '';
  if (/[^A-Za-z0-9._-]/.test(name)) {
    return [{ field: 'metadata.name', message: 'BareMetalHost resource name cannot contain characters other than [A-Za-z0-9._-]' }];
  }
  if (UUID_FORMS.some((form) => form.test(name))) {
    return [{ field: 'metadata.name', message: 'BareMetalHost resource name cannot be a UUID' }];
  }
  return [];
}
