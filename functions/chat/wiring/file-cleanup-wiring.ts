/** The file-cleanup job: the lifecycle deps and the uploads bucket, the only lifecycle function that removes objects. */
import type { ObjectStore } from '../../conversations/ports/file-ports';
import { conversationProductionDepsWith, type LifecycleDeps } from '../../conversations/wiring/conversation-wiring';
import { buildObjectStore } from '../../conversations/wiring/conversation-wiring';

export type FileCleanupDeps = LifecycleDeps & { readonly objects: ObjectStore };

export const fileCleanupProductionDeps: () => FileCleanupDeps = conversationProductionDepsWith((opts) => ({ objects: buildObjectStore(opts) }));
