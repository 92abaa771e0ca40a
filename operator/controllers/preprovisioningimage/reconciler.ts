// BMO's PreprovisioningImageReconciler (pkg/controllers/preprovisioningimage_controller.go):
// holds preprovisioningimage.metal3.io while the image exists, picks the first accepted format
// the provider supports, and fills the status with the provider's image, or says why not.
import { PREPROVISIONINGIMAGE_FINALIZER } from '../../api/finalizers.ts';
import { IMAGE_CONDITION_ERROR, IMAGE_CONDITION_READY, preprovisioningImageSchema } from '../../api/preprovisioningimage.ts';
import type { PreprovisioningImageFormat, PreprovisioningImageObject, PreprovisioningImageStatus } from '../../api/preprovisioningimage.ts';
import { findCondition, setCondition } from '../../runtime/conditions.ts';
import type { Condition } from '../../runtime/conditions.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import { isNotFound } from '../../runtime/kube-errors.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { patchStatus } from '../../runtime/status.ts';
import type { GeneratedImage, ImageProvider } from './default-image-provider.ts';

/** BMO's retry delays: a missing network data Secret, looked at again sooner after the first failure. */
export const IMAGE_DELAYS = { minRetryMs: 10_000, maxRetryMs: 10 * 60_000 } as const;

/** BMO's condition reasons. */
export const IMAGE_REASONS = {
  success: 'ImageSuccess',
  configurationError: 'ConfigurationError',
  missingNetworkData: 'MissingNetworkData',
} as const;

export interface PreprovisioningImageReconcilerOptions {
  images: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> };
  secrets: Pick<ResourceClient<KubeObject>, 'get'>;
  provider: ImageProvider;
  now?: () => Date;
}

type NetworkData = { name?: string; version?: string };

const STATUS_KEYS = ['imageUrl', 'kernelUrl', 'extraKernelParams', 'format', 'networkData', 'architecture', 'conditions'] as const;

export class PreprovisioningImageReconciler implements Reconciler {
  readonly #options: PreprovisioningImageReconcilerOptions;

  constructor(options: PreprovisioningImageReconcilerOptions) {
    this.#options = options;
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const parsed = preprovisioningImageSchema.safeParse(this.#options.images.cache.get(request));
    if (!parsed.success) return {};
    let image = parsed.data;
    const { client } = this.#options.images;
    if (image.metadata.deletionTimestamp) {
      const others = (image.metadata.finalizers ?? []).filter((finalizer) => finalizer !== PREPROVISIONINGIMAGE_FINALIZER);
      if (others.length > 0) {
        log.info('waiting for other finalizers to be removed before cleanup', { finalizers: others });
        return {};
      }
      // The default provider built nothing, so there is nothing to discard.
      log.info('cleaning up deleted resource');
      await removeFinalizer(client, image, PREPROVISIONINGIMAGE_FINALIZER, { signal });
      return {};
    }
    if (!hasFinalizer(image, PREPROVISIONINGIMAGE_FINALIZER)) {
      log.info('adding finalizer');
      // Carried on with the patched object: a pass of its own would read the cache before it shows the finalizer.
      image = preprovisioningImageSchema.parse(await addFinalizer(client, image, PREPROVISIONINGIMAGE_FINALIZER, { signal }));
    }
    const { status, result } = await this.#desiredStatus(image, log);
    if (JSON.stringify(status) !== JSON.stringify(image.status ?? {})) {
      log.info('updating status', { ready: findCondition(status.conditions, IMAGE_CONDITION_READY)?.status, imageUrl: status.imageUrl });
      // A merge patch: keys the new status lacks are removed with null.
      const patch = Object.fromEntries(STATUS_KEYS.map((key) => [key, status[key] ?? null]));
      await patchStatus(client, image, patch, { signal });
    }
    return result;
  }

  async #desiredStatus(image: PreprovisioningImageObject, log: ReconcileContext['log']): Promise<{ status: PreprovisioningImageStatus; result: Result }> {
    const { provider } = this.#options;
    const current = structuredClone(image.status ?? {});
    const architecture = image.spec.architecture ?? '';
    if (!provider.supportsArchitecture(architecture)) {
      log.info('image architecture not supported', { architecture });
      return { status: this.#error(image, current, IMAGE_REASONS.configurationError, 'Architecture not supported'), result: {} };
    }
    const format = (image.spec.acceptFormats ?? []).find((candidate) => provider.supportsFormat(candidate));
    if (!format) {
      log.info('no acceptable image format supported', { acceptFormats: image.spec.acceptFormats ?? [] });
      return { status: this.#error(image, current, IMAGE_REASONS.configurationError, 'No acceptable image format supported'), result: {} };
    }
    const networkData = await this.#networkData(image);
    if (networkData === 'missing') {
      log.info('network data Secret does not exist', { secret: image.spec.networkDataName });
      const status = this.#error(image, current, IMAGE_REASONS.missingNetworkData, 'NetworkData secret not found');
      return { status, result: { requeueAfter: this.#retryDelay(status) } };
    }
    const configChanged = current.format !== format || (current.architecture ?? '') !== architecture
      || (current.networkData?.name ?? '') !== (networkData.name ?? '') || (current.networkData?.version ?? '') !== (networkData.version ?? '');
    if (configChanged) {
      // BMO's order: first say the old image is no longer ready, then record the new request
      // with no URL; the status write brings the next pass, which fills it in.
      if (findCondition(current.conditions, IMAGE_CONDITION_READY)?.status === 'True') {
        return { status: this.#unready(image, current, 'Config changed'), result: {} };
      }
      return { status: this.#image(image, current, { image: { imageUrl: '' }, format, networkData, architecture, message: 'Config changed' }), result: {} };
    }
    const built = provider.buildImage({ format, architecture });
    log.info('image URL available', { url: built.imageUrl, format });
    return { status: this.#image(image, current, { image: built, format, networkData, architecture, message: 'Generated image' }), result: {} };
  }

  async #networkData(image: PreprovisioningImageObject): Promise<NetworkData | 'missing'> {
    const name = image.spec.networkDataName;
    if (!name) return {};
    try {
      const secret = await this.#options.secrets.get({ namespace: image.metadata.namespace, name });
      return { name, version: secret.metadata.resourceVersion ?? '' };
    } catch (error) {
      if (isNotFound(error)) return 'missing';
      throw error;
    }
  }

  #conditions(image: PreprovisioningImageObject, conditions: Condition[] | undefined, settings: Array<[type: string, status: 'True' | 'False', reason: string, message: string]>): Condition[] {
    const now = (this.#options.now ?? (() => new Date()))();
    let list = conditions ?? [];
    for (const [type, status, reason, message] of settings) {
      list = setCondition(list, { type, status, reason, message, ...(image.metadata.generation !== undefined ? { observedGeneration: image.metadata.generation } : {}) }, { now });
    }
    return list;
  }

  #image(image: PreprovisioningImageObject, current: PreprovisioningImageStatus, built: {
    image: GeneratedImage; format: PreprovisioningImageFormat; networkData: NetworkData; architecture: string; message: string;
  }): PreprovisioningImageStatus {
    const ready = built.image.imageUrl ? 'True' : 'False';
    return {
      ...(built.image.imageUrl ? { imageUrl: built.image.imageUrl } : {}),
      ...(built.image.kernelUrl ? { kernelUrl: built.image.kernelUrl } : {}),
      ...(built.image.extraKernelParams ? { extraKernelParams: built.image.extraKernelParams } : {}),
      format: built.format,
      ...(built.networkData.name ? { networkData: built.networkData } : {}),
      ...(built.architecture ? { architecture: built.architecture } : {}),
      conditions: this.#conditions(image, current.conditions, [
        [IMAGE_CONDITION_READY, ready, IMAGE_REASONS.success, built.message],
        [IMAGE_CONDITION_ERROR, 'False', IMAGE_REASONS.success, ''],
      ]),
    };
  }

  #unready(image: PreprovisioningImageObject, current: PreprovisioningImageStatus, message: string): PreprovisioningImageStatus {
    return { ...current, conditions: this.#conditions(image, current.conditions, [[IMAGE_CONDITION_READY, 'False', IMAGE_REASONS.success, message]]) };
  }

  #error(image: PreprovisioningImageObject, current: PreprovisioningImageStatus, reason: string, message: string): PreprovisioningImageStatus {
    const { imageUrl: _dropped, ...rest } = current;
    return {
      ...rest,
      conditions: this.#conditions(image, current.conditions, [
        [IMAGE_CONDITION_READY, 'False', reason, ''],
        [IMAGE_CONDITION_ERROR, 'True', reason, message],
      ]),
    };
  }

  /** BMO's getErrorRetryDelay: the time since the error began plus 10 s, at most 10 minutes. */
  #retryDelay(status: PreprovisioningImageStatus): number {
    const error = findCondition(status.conditions, IMAGE_CONDITION_ERROR);
    if (error?.status !== 'True') return IMAGE_DELAYS.minRetryMs;
    const since = (this.#options.now ?? (() => new Date()))().getTime() - Date.parse(error.lastTransitionTime);
    return Math.min(Math.max(since, 0) + IMAGE_DELAYS.minRetryMs, IMAGE_DELAYS.maxRetryMs);
  }
}
