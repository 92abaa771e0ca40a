// FirmwareSchemas: one per BIOS registry, named by its hash and shared by the hosts that have it.
import type { FirmwareSchema, SettingSchema } from '../../api/firmwareschema.ts';
import { FirmwareSchemaResource, firmwareSchemaName, firmwareSchemaSchema } from '../../api/firmwareschema.ts';
import { METAL3_API_VERSION } from '../../api/group-version.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isAlreadyExists, isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { setOwnerReference } from '../../runtime/object-references.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';

export interface SchemaFor {
  namespace: string;
  /** The HostFirmwareSettings that uses it: an owner, so the schema goes with its last user. */
  owner: KubeObject;
  schema: Record<string, SettingSchema>;
  vendor?: string | undefined;
  model?: string | undefined;
}

/** BMO leaves Password settings out of the schema, by name and by type. */
function withoutPasswords(schema: Record<string, SettingSchema>): Record<string, SettingSchema> {
  return Object.fromEntries(Object.entries(schema).filter(([name, entry]) => !name.includes('Password') && entry.attribute_type !== 'Password'));
}

/** What the host knows of its hardware that the schema does not say yet. */
function missingHardware(schema: FirmwareSchema, known: { vendor?: string | undefined; model?: string | undefined }): Partial<FirmwareSchema['spec']> {
  return {
    ...(!schema.spec.hardwareVendor && known.vendor ? { hardwareVendor: known.vendor } : {}),
    ...(!schema.spec.hardwareModel && known.model ? { hardwareModel: known.model } : {}),
  };
}

export class FirmwareSchemaStore {
  readonly #client: ResourceClient<KubeObject>;
  readonly #cache: Pick<Informer<KubeObject>, 'get'>;

  constructor(options: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> }) {
    this.#client = options.client;
    this.#cache = options.cache;
  }

  /** The cached schema, if it exists and parses. */
  get(name: { namespace: string; name: string }): FirmwareSchema | undefined {
    const parsed = safeParseCached(firmwareSchemaSchema, this.#cache.get(name));
    return parsed.success ? parsed.data : undefined;
  }

  /** BMO's getOrCreateFirmwareSchema: the shared schema, with `owner` among its owners. */
  async ensure(request: SchemaFor): Promise<FirmwareSchema> {
    const key = { namespace: request.namespace, name: firmwareSchemaName(request.schema) };
    const existing = this.get(key) ?? (await this.#fetch(key));
    if (existing) {
      // A schema made before inspection has no vendor or model yet: the first host that knows them fills them in.
      const hardware = missingHardware(existing, request);
      const owned = existing.metadata.ownerReferences?.some((ref) => ref.uid === request.owner.metadata.uid);
      if (owned && Object.keys(hardware).length === 0) return existing;
      const updated = { ...setOwnerReference(existing, request.owner), spec: { ...existing.spec, ...hardware } };
      return firmwareSchemaSchema.parse(await this.#client.replace(updated));
    }
    const created: FirmwareSchema = setOwnerReference(
      {
        apiVersion: METAL3_API_VERSION,
        kind: FirmwareSchemaResource.kind,
        metadata: { ...key },
        spec: {
          ...(request.vendor ? { hardwareVendor: request.vendor } : {}),
          ...(request.model ? { hardwareModel: request.model } : {}),
          schema: withoutPasswords(request.schema),
        },
      },
      request.owner,
    );
    try {
      return firmwareSchemaSchema.parse(await this.#client.create(created));
    } catch (error) {
      // Another host with the same hardware created it first.
      if (isAlreadyExists(error)) return this.ensure(request);
      throw error;
    }
  }

  /** Like ensure's fill-in, for a host whose settings were not read again since its inspection. */
  async fillHardware(name: { namespace: string; name: string }, known: { vendor?: string | undefined; model?: string | undefined }): Promise<FirmwareSchema | undefined> {
    const existing = this.get(name);
    if (!existing) return undefined;
    const hardware = missingHardware(existing, known);
    if (Object.keys(hardware).length === 0) return existing;
    return firmwareSchemaSchema.parse(await this.#client.replace({ ...existing, spec: { ...existing.spec, ...hardware } }));
  }

  async #fetch(name: { namespace: string; name: string }): Promise<FirmwareSchema | undefined> {
    try {
      return firmwareSchemaSchema.parse(await this.#client.get(name));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
