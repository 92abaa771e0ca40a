// BMO's DataImageReconciler: the DataImage belongs to the BareMetalHost of the same name (a plain
// owner reference, as BMO's), carries dataimage.metal3.io while it exists, and is let go only once the
// image is out of the host's virtual CD. Attaching and detaching is the host controller's work
// (when the host next powers on); this one waits for it.
import { DETACHED_ANNOTATION, PAUSED_ANNOTATION } from '../../api/annotations.ts';
import { bareMetalHostSchema } from '../../api/baremetalhost.ts';
import type { BareMetalHost } from '../../api/baremetalhost.ts';
import { dataImageSchema } from '../../api/dataimage.ts';
import type { DataImage } from '../../api/dataimage.ts';
import { DATAIMAGE_FINALIZER } from '../../api/finalizers.ts';
import type { Provisioner } from '../../provisioner/provisioner.ts';
import { NeedsRegistrationError } from '../../provisioner/result.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizers.ts';
import type { Informer } from '../../runtime/informer.ts';
import type { KubeObject } from '../../runtime/kube-object.ts';
import { ensureOwnerReference } from '../../runtime/owner-patch.ts';
import type { ReconcileContext, Reconciler, Request, Result } from '../../runtime/reconciler.ts';
import type { ResourceClient } from '../../runtime/resource-client.ts';
import { patchStatus } from '../../runtime/status.ts';
import { safeParseCached } from '../../runtime/parse-cached.ts';
import { firmwareHostIdentity } from '../hostfirmwaresettings/index.ts';

/** BMO's delays: waiting for a detach, after a failed read, for a detached host. */
export const DATA_IMAGE_DELAYS = { detachWaitMs: 60_000, retryMs: 30_000, detachedHostMs: 20_000 } as const;

export interface DataImageReconcilerOptions {
  images: { client: ResourceClient<KubeObject>; cache: Pick<Informer<KubeObject>, 'get'> };
  hosts: Pick<Informer<KubeObject>, 'get'>;
  provisioner: Provisioner;
  events: EventRecorder;
}

export class DataImageReconciler implements Reconciler {
  readonly #options: DataImageReconcilerOptions;

  constructor(options: DataImageReconcilerOptions) {
    this.#options = options;
  }

  async reconcile(request: Request, { log, signal }: ReconcileContext): Promise<Result> {
    const parsedImage = dataImageSchema.safeParse(this.#options.images.cache.get(request));
    if (!parsedImage.success) return {};
    let image = parsedImage.data;
    const { client } = this.#options.images;
    const parsedHost = safeParseCached(bareMetalHostSchema, this.#options.hosts.get(request));
    if (!parsedHost.success) {
      // Nothing can be attached to a host that does not exist.
      log.info('bareMetalHost not found for the dataImage, remove finalizer if it exists');
      await removeFinalizer(client, image, DATAIMAGE_FINALIZER, { signal });
      return {};
    }
    const host = parsedHost.data;
    const annotations = host.metadata.annotations ?? {};
    if (PAUSED_ANNOTATION in annotations) {
      log.info('host associated with dataImage is paused, no work to do');
      return {};
    }
    // The host becomes an owner as BMO makes it one: not the controller and not blocking the host's
    // deletion, so a foreground deletion of the host never waits on the image's finalizer.
    // Each write carries on with the object it returned: a pass of its own would read the cache before it shows the write.
    image = dataImageSchema.parse((await ensureOwnerReference(client, image, host, { signal })).object);
    const deleting = image.metadata.deletionTimestamp !== undefined;
    if (!deleting && !hasFinalizer(image, DATAIMAGE_FINALIZER)) {
      log.info('adding finalizer');
      image = dataImageSchema.parse(await addFinalizer(client, image, DATAIMAGE_FINALIZER, { signal }));
    }
    if (DETACHED_ANNOTATION in annotations) {
      // Ironic no longer manages the host, so nothing can be detached through it.
      if (!deleting) return { requeueAfter: DATA_IMAGE_DELAYS.detachedHostMs };
      log.info('dataImage deletion requested in detached state, removing finalizer');
      await removeFinalizer(client, image, DATAIMAGE_FINALIZER, { signal });
      return {};
    }
    return deleting ? this.#release(image, host, { log, signal }) : {};
  }

  /** Deleted: the finalizer goes once the host's virtual media is empty (the host controller detaches it at its next power-on). */
  async #release(image: DataImage, host: BareMetalHost, { log, signal }: Pick<ReconcileContext, 'log' | 'signal'>): Promise<Result> {
    let reading;
    try {
      reading = await this.#options.provisioner.dataImageStatus({ host: firmwareHostIdentity(host) });
    } catch (error) {
      // No node: nothing can be attached.
      if (!(error instanceof NeedsRegistrationError)) throw error;
      reading = { kind: 'done', value: { attached: false } } as const;
    }
    if (reading.kind === 'busy') return { requeueAfter: reading.afterMs };
    if (reading.kind === 'failed') {
      log.info('failed to fetch virtual media details', { error: reading.message });
      this.#options.events.event(image, { type: 'Warning', reason: 'DataImageError', action: 'Detach', note: reading.message });
      const count = (image.status?.error?.count ?? 0) + 1;
      await patchStatus(this.#options.images.client, image, { error: { count, message: reading.message } }, { signal });
      return { requeueAfter: DATA_IMAGE_DELAYS.retryMs };
    }
    if (reading.value.attached) {
      log.info('waiting for the dataImage to be detached (at the host\'s next power-on) before removing the finalizer');
      return { requeueAfter: DATA_IMAGE_DELAYS.detachWaitMs };
    }
    log.info('dataImage detached, removing finalizer');
    await removeFinalizer(this.#options.images.client, image, DATAIMAGE_FINALIZER, { signal });
    return {};
  }
}
