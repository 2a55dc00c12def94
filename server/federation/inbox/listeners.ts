import { Accept, Announce, Block, Create, Delete, Follow, Like, Reject, Undo, Update } from '@fedify/vocab';
import type { Federation, InboxContext } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';
import { ReceivedRefused } from '../../services/received-items.js';
import { ActorRefused } from '../remote-actors.js';
import { FetchRefused } from '../fetch-documents.js';
import { onAccept, onBlock, onFollow, onReject, onUndoFollow } from './follows.js';
import { onCreate, onDelete, onUpdate } from './notes.js';
import { onUnverifiedActivity } from './actors.js';
import { onAnnounce, onLike, onUndoReaction } from './reactions.js';

/**
 * An activity the hub will never take (a thread closed to its sender, an actor that cannot be
 * fetched safely) is dropped with a line in the log; anything else fails and Fedify tries again.
 */
function refusing<A>(handle: (ctx: InboxContext<Hub>, activity: A) => unknown) {
  return async (ctx: InboxContext<Hub>, activity: A) => {
    try {
      await handle(ctx, activity);
    } catch (err) {
      if (err instanceof ReceivedRefused || err instanceof ActorRefused || err instanceof FetchRefused) {
        ctx.data.log.info(`federation: dropped an activity: ${err.message}`);
        return;
      }
      throw err;
    }
  };
}

async function onUndo(ctx: InboxContext<Hub>, undo: Undo): Promise<void> {
  const inner = await undo.getObject().catch(() => null);
  if (inner instanceof Follow) onUndoFollow(ctx, undo, inner);
  else if (inner instanceof Like || inner instanceof Announce) await onUndoReaction(ctx, undo, inner);
}

/** What the inboxes (each channel's and the shared one) do with each kind of activity. */
export function mountInbox(federation: Federation<Hub>): void {
  federation
    .setInboxListeners('/channel/{identifier}/inbox', '/inbox')
    .on(Follow, refusing(onFollow))
    .on(Accept, refusing(onAccept))
    .on(Reject, refusing(onReject))
    .on(Undo, refusing(onUndo))
    .on(Create, refusing(onCreate))
    .on(Update, refusing(onUpdate))
    .on(Delete, refusing(onDelete))
    .on(Like, refusing(onLike))
    .on(Announce, refusing(onAnnounce))
    .on(Block, refusing(onBlock))
    .onUnverifiedActivity(onUnverifiedActivity)
    .onError((ctx, error) => ctx.data.log.warn(`federation: an activity failed: ${error.message}`));
}
