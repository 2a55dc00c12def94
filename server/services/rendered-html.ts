import type { Db } from '../db/open.js';
import { RENDERER_VERSION } from '../content/render.js';
import { getConfig, setConfig } from '../store/config.js';
import { renderingsAfter, setItemHtml } from '../store/items.js';
import { itemRendering } from './item-html.js';

const BATCH = 200;

export interface HtmlRefresh {
  /** Resolves with the number of items whose HTML changed, once all are done (or stopped). */
  done: Promise<number>;
  /** Stops after the batch in progress. */
  stop(): Promise<void>;
}

/**
 * Items keep the HTML of their body, rendered when written. When the renderer changed since (a
 * newer RENDERER_VERSION), every item is rendered again, in small transactions in the background
 * so that the hub keeps answering; an edit made meanwhile is never overwritten, because each
 * batch reads and writes in one transaction.
 */
export function refreshRenderedHtml(db: Db): HtmlRefresh {
  let stopped = false;
  const run = async () => {
    if (getConfig(db, 'system', 'renderer_version') === String(RENDERER_VERSION)) return 0;
    let after = 0;
    let changed = 0;
    const batch = db.transaction(() => {
      const rows = renderingsAfter(db, after, BATCH);
      for (const row of rows) {
        const rendering = itemRendering(db, row.body, row.mimetype);
        if (rendering.html !== row.html || rendering.html_text !== row.html_text) {
          setItemHtml(db, row.id, rendering);
          changed++;
        }
      }
      return rows;
    });
    for (;;) {
      if (stopped) return changed;
      const rows = batch();
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
      await new Promise((resolve) => setImmediate(resolve));
    }
    setConfig(db, 'system', 'renderer_version', String(RENDERER_VERSION));
    return changed;
  };
  const done = run();
  return {
    done,
    async stop() {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}
