/** BMO's SecretManager: Secrets claimed (label, owner reference, finalizer) by the objects that read them. */
export { CLAIMED_SECRET_SELECTOR, SecretStore } from './secret-store.ts';
export type { ClaimOptions, ClaimedSecretAccess, SecretAccess, SecretObject, SecretOwner } from './secret-store.ts';
