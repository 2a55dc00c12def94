import { createHash } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { insertXchanIfMissing, movedIdentities, type NewXchan } from '../../store/channel-import.js';
import { getXchan, getXchanByAddress, getXchanByGuid } from '../../store/xchans.js';
import { fromAclString, toAclString } from '../../util/ids.js';
import { NULL_DATE } from '../../util/time.js';
import { num, str, type Json } from './native-client.js';

const XCHAN_TEXT = [
  'xchan_guid', 'xchan_guid_sig', 'xchan_pubkey', 'xchan_photo_mimetype', 'xchan_photo_l', 'xchan_photo_m', 'xchan_photo_s', 'xchan_addr',
  'xchan_url', 'xchan_connurl', 'xchan_follow', 'xchan_connpage', 'xchan_name', 'xchan_network', 'xchan_instance_url',
] as const;
const XCHAN_INTS = ['xchan_flags', 'xchan_hidden', 'xchan_orphan', 'xchan_censored', 'xchan_selfcensored', 'xchan_system', 'xchan_pubforum', 'xchan_deleted'] as const;

/** An xchan row of the source's export as a row for this hub. */
function xchanFromExport(x: Json): NewXchan {
  const row: Record<string, string | number> = { xchan_hash: str(x.xchan_hash) };
  for (const c of XCHAN_TEXT) row[c] = str(x[c]);
  for (const c of XCHAN_INTS) row[c] = num(x[c]);
  row.xchan_photo_mimetype ||= 'image/png';
  row.xchan_photo_date = str(x.xchan_photo_date) || NULL_DATE;
  row.xchan_name_date = str(x.xchan_name_date) || NULL_DATE;
  return row as unknown as NewXchan;
}

/**
 * Maps the identities the source refers to onto identities of this hub: the source channel onto
 * the imported channel (keys are not moved, so it has a new identity), channels moved here before
 * onto their new identities, and everyone else onto an xchan row of the same hash, added from the
 * source's export (or, for authors it does not list, from what their items say about them).
 */
export class IdentityMap {
  private readonly moved = new Map<string, string>();
  private readonly movedByGuid = new Map<string, string>();
  private readonly byHash = new Map<string, Json>();
  private readonly hashByGuid = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly source: { hash: string; guid: string },
    private readonly own: string,
    exportXchans: Json[],
  ) {
    for (const m of movedIdentities(db)) {
      this.moved.set(m.source_hash, m.channel_hash);
      if (m.source_guid) this.movedByGuid.set(m.source_guid, m.channel_hash);
    }
    this.moved.set(source.hash, own);
    for (const x of exportXchans) {
      const hash = str(x.xchan_hash);
      if (!hash) continue;
      this.byHash.set(hash, x);
      if (str(x.xchan_guid)) this.hashByGuid.set(str(x.xchan_guid), hash);
    }
  }

  /** The identity here of a source identity (the hash stays unless it moved). */
  hash(sourceHash: string): string {
    return this.moved.get(sourceHash) ?? sourceHash;
  }

  /**
   * The identity here of a source identity, its xchan row added when the export describes it;
   * undefined when neither this hub nor the export knows it.
   */
  ensure(sourceHash: string): string | undefined {
    const hash = this.hash(sourceHash);
    if (getXchan(this.db, hash)) return hash;
    const described = this.byHash.get(sourceHash);
    if (!described) return undefined;
    insertXchanIfMissing(this.db, xchanFromExport(described));
    return hash;
  }

  /** The identity here of an item's owner or author (a portable xchan: name, address, url, id = guid, key…). */
  ofPortable(p: Json | undefined): string | undefined {
    if (!p || typeof p !== 'object') return undefined;
    const guid = str(p.id);
    if (guid && guid === this.source.guid) return this.own;
    const moved = guid ? this.movedByGuid.get(guid) : undefined;
    if (moved) return moved;
    const listed = guid ? this.hashByGuid.get(guid) : undefined;
    if (listed) return this.ensure(listed);
    const known = (guid && getXchanByGuid(this.db, guid)) || (str(p.address) && getXchanByAddress(this.db, str(p.address)));
    if (known) return this.hash(known.xchan_hash);
    if (!guid && !str(p.url)) return undefined;
    // Not listed by the source: an identity of its own, named by what the item says about it. The
    // hash is derived the way Hearth derives its own (the source's may use another function).
    const hash = createHash('sha256').update(guid ? guid + str(p.key) : str(p.url)).digest('base64url');
    const photo = (p.photo && typeof p.photo === 'object' ? p.photo : {}) as Json;
    insertXchanIfMissing(this.db, {
      ...xchanFromExport({}),
      xchan_hash: hash, xchan_guid: guid, xchan_guid_sig: str(p.id_sig), xchan_pubkey: str(p.key), xchan_addr: str(p.address),
      xchan_url: str(p.url), xchan_name: str(p.name) || str(p.address) || 'unknown', xchan_network: str(p.network) || 'unknown',
      xchan_photo_mimetype: str(photo.mimetype) || 'image/png', xchan_photo_m: str(photo.src), xchan_photo_l: str(photo.src), xchan_photo_s: str(photo.src),
    });
    return hash;
  }

  /** An access list of identities ('<a><b>') with each mapped. */
  aclOfIdentities(acl: string): string {
    return toAclString(fromAclString(acl).map((h) => this.hash(h)));
  }
}
