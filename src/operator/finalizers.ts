import { FINALIZER, hasFinalizer, isDeleting, namespaceOf, type ClusterResource } from './kube-objects.js';
import type { KubeWriter } from './kube-writer.js';

/**
 * The finalizer `gw.io/cleanup` holds a resource in the API until the
 * operator has taken its records out of Redis: a token deleted with kubectl
 * stops working before `kubectl delete` returns from the object's point of
 * view (the object is gone only after the write). A live resource gets the
 * finalizer before its records are first written, so every record in Redis
 * has one guarding its removal.
 */
export function needsFinalizer(obj: ClusterResource): boolean {
  return !isDeleting(obj) && !hasFinalizer(obj);
}

export function readyToRelease(obj: ClusterResource): boolean {
  return isDeleting(obj) && hasFinalizer(obj);
}

export async function addFinalizer(writer: KubeWriter, obj: ClusterResource): Promise<void> {
  await writer.setFinalizers(obj.kind, namespaceOf(obj), obj.metadata.name, [...(obj.metadata.finalizers ?? []), FINALIZER], obj.metadata.resourceVersion);
}

/** Call only after the Redis write that no longer holds this resource's records has succeeded. */
export async function releaseFinalizer(writer: KubeWriter, obj: ClusterResource): Promise<void> {
  await writer.setFinalizers(
    obj.kind,
    namespaceOf(obj),
    obj.metadata.name,
    (obj.metadata.finalizers ?? []).filter((f) => f !== FINALIZER),
    obj.metadata.resourceVersion,
  );
}
