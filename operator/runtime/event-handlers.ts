import { groupOf, keyOf, objectName } from './kube-object.ts';
import type { KubeObject, ObjectName, ResourceType } from './kube-object.ts';
import type { ObjectEvent } from './predicates.ts';

/** Turns a watched object into the requests it should trigger (controller-runtime `handler.MapFunc`). */
export type MapFunc<T extends KubeObject = KubeObject> = (object: T) => ObjectName[];

/** The object's own key; the handler for a controller's primary kind. */
export const requestForObject: MapFunc = (object) => [objectName(object)];

export interface OwnerMatchOptions {
  /** Only follow the owner reference marked `controller: true` (controller-runtime `OnlyControllerOwner`). */
  controllerOnly?: boolean;
}

/**
 * Requests for the owners of a watched object whose group and kind match `owner`
 * (the version is ignored, as in controller-runtime). Namespaced owners share the
 * dependent's namespace; that is the only place Kubernetes allows them to be.
 */
export function requestsForOwner(
  owner: Pick<ResourceType, 'group' | 'kind' | 'namespaced'>,
  options: OwnerMatchOptions = {},
): MapFunc {
  const controllerOnly = options.controllerOnly ?? true;
  return (object) =>
    (object.metadata.ownerReferences ?? [])
      .filter((ref) => ref.kind === owner.kind && groupOf(ref.apiVersion) === owner.group)
      .filter((ref) => !controllerOnly || ref.controller === true)
      .map((ref) =>
        owner.namespaced && object.metadata.namespace
          ? { namespace: object.metadata.namespace, name: ref.name }
          : { name: ref.name },
      );
}

/**
 * The distinct queue keys an event maps to. Updates map both the old and the new object,
 * so a changed owner reference or reference field notifies the previous target too.
 */
export function keysForEvent<T extends KubeObject>(map: MapFunc<T>, event: ObjectEvent<T>): string[] {
  const names = event.type === 'update' ? [...map(event.oldObject), ...map(event.object)] : map(event.object);
  return [...new Set(names.map(keyOf))];
}
