/** The file-cleanup job: the lifecycle deps and the uploads bucket, the only lifecycle function that removes objects. */
import type { ObjectStore } from '../../conversations/ports/file-ports';
import { lifecycleProductionDepsWith, type LifecycleDeps } from '../../conversations/wiring/lifecycle-wiring';
import { buildObjectStore } from '../../conversations/wiring/object-store-wiring';

export type FileCleanupDeps = LifecycleDeps & { readonly objects: ObjectStore };

export const fileCleanupProductionDeps: () => FileCleanupDeps = lifecycleProductionDepsWith((opts) => ({ objects: buildObjectStore(opts) }));
