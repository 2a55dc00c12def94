import type { ApiRoute } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import { exportPage } from '../../../services/channel-export.js';
import { NULL_DATE, nowDb } from '../../../util/time.js';
import { dateParam } from '../param-dates.js';

const MAX_PAGE = 1_000_000_000;

/**
 * item/export_page: the channel's items in the backup form, a page at a time (page counts from 0,
 * records per page 1–1000, default 10), created between since and until. Importers ask for page
 * 0, 1, 2… until a response has no `item`.
 */
export const itemExportPage: ApiRoute = {
  path: 'item/export_page',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ hub, params, user }) {
    const since = dateParam(params, 'since') ?? NULL_DATE;
    const until = dateParam(params, 'until') ?? nowDb();
    if (until < since) throw badRequest('until is before since');
    const page = Math.max(0, params.int('page', { max: MAX_PAGE }) ?? 0);
    const asked = params.int('records') ?? 0;
    const records = asked <= 0 ? 10 : Math.min(asked, 1000);
    return exportPage(hub, user().channel, { since, until, page, records });
  },
};
