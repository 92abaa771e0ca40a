// BMO's getPreprovImage: the PreprovisioningImage named after a host is created (the host as
// controller owner, the host's labels, BMO's finalizer), kept in line with what the host can
// boot, and its status used once an image provider made it ready for exactly that.
import { PREPROVISIONING_IMAGE_FINALIZER } from '../../api/finalizers.ts';
import { IMAGE_CONDITION_ERROR, IMAGE_CONDITION_READY, preprovisioningImageSchema } from '../../api/preprovisioningimage.ts';
import type { PreprovisioningImageFormat, PreprovisioningImageObject, PreprovisioningImageSpec } from '../../api/preprovisioningimage.ts';
import type { PreprovisioningImage } from '../../provisioner/provisioner.ts';
import { findCondition } from '../../runtime/conditions.ts';
import { removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject, ObjectName } from '../../runtime/kube-object.ts';
import { setControllerReference } from '../../runtime/object-references.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import type { SecretAccess } from '../../secrets/index.ts';

/** What the host asks of its image: BMO's expected PreprovisioningImageSpec. */
export interface WantedPreprovisioningImage {
  acceptFormats: PreprovisioningImageFormat[];
  architecture: string;
  networkDataName?: string | undefined;
}

export type PreprovisioningImageOutcome =
  /** Created, updated, or not (yet) ready for what the host asks: the reason says which. */
  | { kind: 'pending'; reason: string }
  | { kind: 'ready'; image: PreprovisioningImage }
  /** The image provider could not build it (its Error condition). */
  | { kind: 'error'; message: string };

/** What the host controller needs of PreprovisioningImages; PreprovisioningImageStore is the Kubernetes implementation. */
export interface PreprovisioningImageAccess {
  acquire(host: KubeObject, wanted: WantedPreprovisioningImage): Promise<PreprovisioningImageOutcome>;
  release(name: ObjectName): Promise<void>;
}

const pending = (reason: string): PreprovisioningImageOutcome => ({ kind: 'pending', reason });

function specOf(wanted: WantedPreprovisioningImage): PreprovisioningImageSpec {
  return {
    ...(wanted.networkDataName ? { networkDataName: wanted.networkDataName } : {}),
    architecture: wanted.architecture,
    acceptFormats: wanted.acceptFormats,
  };
}

/** Go's DeepEqual over the omitempty JSON: unset and empty are the same. */
function sameSpec(current: PreprovisioningImageSpec, wanted: PreprovisioningImageSpec): boolean {
  const normal = (spec: PreprovisioningImageSpec) => JSON.stringify([spec.networkDataName || '', spec.architecture || '', spec.acceptFormats ?? []]);
  return normal(current) === normal(wanted);
}

function imageOf(object: PreprovisioningImageObject): PreprovisioningImage {
  const status = object.status ?? {};
  return {
    format: status.format ?? 'initrd',
    imageUrl: status.imageUrl ?? '',
    ...(status.kernelUrl ? { kernelUrl: status.kernelUrl } : {}),
    ...(status.extraKernelParams ? { extraKernelParams: status.extraKernelParams } : {}),
  };
}

export class PreprovisioningImageStore implements PreprovisioningImageAccess {
  readonly #client: ResourceClient<KubeObject>;
  readonly #cache: Pick<Informer<KubeObject>, 'get'>;
  readonly #secrets: SecretAccess;

  constructor(options: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'>; secrets: SecretAccess }) {
    this.#client = options.client;
    this.#cache = options.cache;
    this.#secrets = options.secrets;
  }

  async acquire(host: KubeObject, wanted: WantedPreprovisioningImage): Promise<PreprovisioningImageOutcome> {
    const name = { namespace: host.metadata.namespace ?? '', name: host.metadata.name ?? '' };
    const cached = this.#cache.get(name);
    if (!cached) return this.#create(host, wanted);
    const parsed = preprovisioningImageSchema.safeParse(cached);
    if (!parsed.success) return { kind: 'error', message: `PreprovisioningImage ${name.name} is malformed: ${parsed.error.issues[0]?.message ?? ''}` };
    const image = parsed.data;
    if (image.metadata.deletionTimestamp) {
      if (!image.metadata.finalizers?.includes(PREPROVISIONING_IMAGE_FINALIZER)) return pending('the PreprovisioningImage is being deleted, waiting for a new one');
      // Still held for this host: what it had stays usable until it goes.
      return image.status?.imageUrl ? { kind: 'ready', image: imageOf(image) } : pending('the PreprovisioningImage is being deleted');
    }
    const updated = await this.#update(host, image, wanted);
    if (updated) return pending('updated the PreprovisioningImage');
    return this.#availability(host, image);
  }

  async release(name: ObjectName): Promise<void> {
    let current: KubeObject;
    try {
      current = await this.#client.get(name);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    await removeFinalizer(this.#client, current, PREPROVISIONING_IMAGE_FINALIZER);
  }

  async #create(host: KubeObject, wanted: WantedPreprovisioningImage): Promise<PreprovisioningImageOutcome> {
    const object = setControllerReference<KubeObject>({
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'PreprovisioningImage',
      metadata: {
        name: host.metadata.name ?? '',
        namespace: host.metadata.namespace ?? '',
        ...(host.metadata.labels ? { labels: host.metadata.labels } : {}),
        finalizers: [PREPROVISIONING_IMAGE_FINALIZER],
      },
      spec: specOf(wanted),
    }, host);
    try {
      await this.#client.create(object);
    } catch (error) {
      // Created by an earlier pass the cache has not shown yet.
      if (!isAlreadyExists(error)) throw error;
    }
    return pending('created the PreprovisioningImage');
  }

  /** Finalizer, the host's labels and the spec, in one merge patch pinned to the version read; true when written. */
  async #update(host: KubeObject, image: PreprovisioningImageObject, wanted: WantedPreprovisioningImage): Promise<boolean> {
    const metadata: Record<string, unknown> = {};
    const finalizers = image.metadata.finalizers ?? [];
    if (!finalizers.includes(PREPROVISIONING_IMAGE_FINALIZER)) metadata.finalizers = [...finalizers, PREPROVISIONING_IMAGE_FINALIZER];
    const labels = Object.entries(host.metadata.labels ?? {}).filter(([key, value]) => image.metadata.labels?.[key] !== value);
    if (labels.length > 0) metadata.labels = Object.fromEntries(labels);
    const spec = specOf(wanted);
    const specChanged = !sameSpec(image.spec, spec);
    if (Object.keys(metadata).length === 0 && !specChanged) return false;
    const patch = {
      metadata: { ...metadata, resourceVersion: image.metadata.resourceVersion },
      ...(specChanged ? { spec: { networkDataName: spec.networkDataName ?? null, architecture: spec.architecture, acceptFormats: spec.acceptFormats } } : {}),
    };
    try {
      await this.#client.patch({ namespace: image.metadata.namespace, name: image.metadata.name ?? '' }, patch, { type: 'merge' });
    } catch (error) {
      // Someone wrote it meanwhile: the watch brings the new version and the host looks again.
      if (!isConflict(error)) throw error;
    }
    return true;
  }

  /** BMO's preprovImageAvailable: built for this architecture, an accepted format, the current network data, and Ready for this generation. */
  async #availability(host: KubeObject, image: PreprovisioningImageObject): Promise<PreprovisioningImageOutcome> {
    const { spec } = image;
    const status = image.status ?? {};
    if (!status.imageUrl && (status.conditions ?? []).length === 0) return pending('no image provider has filled it in yet');
    if ((status.architecture ?? '') !== (spec.architecture ?? '')) {
      return pending(`the image is for architecture "${status.architecture ?? ''}", not "${spec.architecture ?? ''}"`);
    }
    if (!status.format || !(spec.acceptFormats ?? []).includes(status.format)) return pending(`the image format "${status.format ?? ''}" is not accepted`);
    if (spec.networkDataName) {
      const secret = await this.#secrets.claim({ namespace: image.metadata.namespace, name: spec.networkDataName },
        { owner: { name: host.metadata.name ?? '', uid: host.metadata.uid ?? '' }, finalizer: false });
      if (!secret) return pending(`the network data Secret ${spec.networkDataName} does not exist`);
      if (status.networkData?.version !== secret.metadata.resourceVersion) return pending('the network data in the image is out of date');
    }
    if ((status.networkData?.name ?? '') !== (spec.networkDataName ?? '')) return pending('the network data in the image is out of date');
    const error = findCondition(status.conditions, IMAGE_CONDITION_ERROR);
    if (error?.status === 'True') return { kind: 'error', message: error.message };
    const ready = findCondition(status.conditions, IMAGE_CONDITION_READY);
    if (ready?.status === 'True' && ready.observedGeneration === image.metadata.generation) return { kind: 'ready', image: imageOf(image) };
    return pending('the PreprovisioningImage is not ready');
  }
}
