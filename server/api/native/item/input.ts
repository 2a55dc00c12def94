import type { Hub } from '../../../hub-context.js';
import type { ParamReader } from '../../../http/params.js';
import type { ChannelRow } from '../../../store/rows.js';
import { badRequest } from '../../../http/errors.js';
import { getItemByMid } from '../../../store/items.js';
import { aclFromLists, type AccessLists } from '../../../services/acl.js';
import type { PostInput } from '../../../services/items.js';
import type { ItemSubmission } from '../../../services/item-submit.js';
import { albumName } from '../../../services/photos.js';
import { parseCategories } from '../../../content/terms.js';
import { fromAclString, uuid } from '../../../util/ids.js';
import { nowDb } from '../../../util/time.js';
import { dateParam } from '../param-dates.js';

/** iconfig key naming a design element's page, by item_type (Hubzilla's). */
const PAGE_KEYS: Record<number, string> = { 1: 'BUILDBLOCK', 2: 'PDL', 3: 'WEBPAGE', 5: 'docfile', 6: 'CARD', 7: 'ARTICLE' };
const ITEM_TYPE_LAYOUT = 2;

function channelDefaultAcl(channel: ChannelRow): AccessLists {
  return {
    allow_cid: String(channel.channel_allow_cid ?? ''),
    allow_gid: String(channel.channel_allow_gid ?? ''),
    deny_cid: String(channel.channel_deny_cid ?? ''),
    deny_gid: String(channel.channel_deny_gid ?? ''),
  };
}

/**
 * Access lists from contact_allow/group_allow/contact_deny/group_deny (arrays x[] or comma lists);
 * undefined when none is given.
 */
export function aclParams(hub: Hub, channel: ChannelRow, params: ParamReader): AccessLists | undefined {
  const names = ['contact_allow', 'group_allow', 'contact_deny', 'group_deny'];
  if (!names.some((n) => params.has(n))) return undefined;
  return aclFromLists(hub.db, channel.channel_id, {
    contactAllow: params.list('contact_allow'),
    groupAllow: params.list('group_allow'),
    contactDeny: params.list('contact_deny'),
    groupDeny: params.list('group_deny'),
  });
}

function pageName(title: string): string {
  return title.trim().toLowerCase().replace(/[/\s]+/g, '-');
}

/** item/update's parameters (seed §4.6, with Hubzilla's `source` and `permalink` spellings). */
export function updateRequest(hub: Hub, channel: ChannelRow, params: ParamReader): ItemSubmission {
  const media = params.fileList('media');
  // Uploaded media are linked from the body, so a post of media alone is not empty.
  const body = media.length ? (params.str('body')?.trim() ?? '') : params.required('body');
  const title = params.str('title')?.trim();
  const summary = params.str('summary')?.trim();
  const mimetype = params.str('mimetype')?.trim() || undefined;
  const objType = params.str('obj_type')?.trim() || undefined;
  const acl = aclParams(hub, channel, params);
  const expires = dateParam(params, 'expire');
  if (expires && expires <= nowDb()) throw badRequest('parameter expire must be in the future');
  const categories = params.has('category') ? parseCategories(params.str('category')) : undefined;

  const namespace = params.str('namespace')?.trim();
  const remoteId = params.str('remote_id')?.trim();
  if (Boolean(namespace) !== Boolean(remoteId)) throw badRequest('namespace and remote_id must be given together');

  const itemType = params.int('webpage', { min: 0, max: 9 }) ?? 0;
  let messageId = params.str('message_id')?.trim() || undefined;
  const iconfig: NonNullable<PostInput['iconfig']> = [];
  if (namespace && remoteId) iconfig.push({ cat: 'system', k: namespace, v: remoteId });
  const pagetitle = params.str('pagetitle')?.trim();
  if (itemType || pagetitle) {
    if (!pagetitle && !messageId) messageId = uuid();
    iconfig.push({ cat: 'system', k: PAGE_KEYS[itemType] ?? 'WEBPAGE', v: pageName(pagetitle || messageId!.split('@')[0]!), sharing: 1 });
  }
  const layoutMid = params.str('layout_mid')?.trim() || undefined;
  if (layoutMid) {
    const layout = getItemByMid(hub.db, layoutMid);
    if (!layout || layout.uid !== channel.channel_id || layout.item_type !== ITEM_TYPE_LAYOUT || layout.item_deleted) {
      throw badRequest('layout_mid: no layout of this channel has that message id');
    }
  }

  const post: PostInput = {
    body,
    title,
    summary,
    mimetype,
    parentId: params.int('parent', { min: 1 }),
    parentMid: params.str('parent_mid')?.trim() || undefined,
    acl: acl ?? channelDefaultAcl(channel),
    location: params.str('location')?.trim(),
    coord: params.str('coord')?.trim(),
    app: params.str('app')?.trim() || params.str('source')?.trim() || undefined,
    categories,
    verb: params.str('verb')?.trim() || undefined,
    objType,
    created: dateParam(params, 'created'),
    expires,
    consensus: params.bool('consensus'),
    nocomment: params.bool('nocomment'),
    itemType,
    layoutMid,
    messageId,
    author: params.str('remote_xchan')?.trim() || undefined,
    plink: params.str('plink')?.trim() || params.str('permalink')?.trim() || undefined,
    iconfig,
  };
  return {
    editId: params.int('post_id', { min: 1 }),
    external: namespace && remoteId ? { namespace, remoteId } : undefined,
    post,
    edit: { body, title, summary, mimetype, categories, objType, expires, acl },
    media,
    // Where the uploads go: Hearth's addition, for the UI to name it (the month's by default).
    album: params.has('album') ? albumName(params.str('album') ?? '') : undefined,
  };
}

/** Access lists given as Hubzilla's column strings ('<a><b>') or as plain comma lists. */
function aclColumn(params: ParamReader, name: string): string[] {
  return params.list(name).flatMap((v) => (v.includes('<') ? fromAclString(v) : [v]));
}

/** channel/stream POST: an item from parameters named like item columns. */
export function activityInput(hub: Hub, channel: ChannelRow, params: ParamReader): PostInput {
  const columns = ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'];
  const acl = columns.some((c) => params.has(c))
    ? aclFromLists(hub.db, channel.channel_id, {
        contactAllow: aclColumn(params, 'allow_cid'),
        groupAllow: aclColumn(params, 'allow_gid'),
        contactDeny: aclColumn(params, 'deny_cid'),
        groupDeny: aclColumn(params, 'deny_gid'),
      })
    : aclParams(hub, channel, params);
  const str = (name: string) => params.str(name)?.trim() || undefined;
  const messageId = str('mid') ?? str('uuid');
  const parentMid = str('thr_parent') ?? str('parent_mid');
  return {
    body: params.required('body'),
    title: str('title'),
    summary: str('summary'),
    mimetype: str('mimetype'),
    // A parent_mid equal to the item's own mid is how Hubzilla marks a top-level post.
    parentMid: parentMid !== messageId ? parentMid : undefined,
    acl: acl ?? channelDefaultAcl(channel),
    location: str('location'),
    coord: str('coord'),
    app: str('app'),
    verb: str('verb'),
    objType: str('obj_type'),
    obj: str('obj'),
    tgtType: str('tgt_type'),
    target: str('target'),
    created: dateParam(params, 'created'),
    messageId,
  };
}
