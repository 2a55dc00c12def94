import { createHash } from 'node:crypto';
import type { Db } from '../../db/open.js';
import { channelWithIdentity, insertXchanIfMissing, movedIdentities, type NewXchan } from '../../store/channel-import.js';
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

/** Who wrote an item, as far as this hub is concerned. */
export type Author =
  | { hash: string }
  /** Not to be imported: why. */
  | { refused: string };

const UNKNOWN: Author = { refused: 'its author is unknown' };
const CLAIMS_LOCAL: Author = { refused: 'its author claims to be another channel of this hub' };

/** What a row of the source's export says an identity is. */
function rowIdentity(x: Json) {
  return { hash: str(x.xchan_hash), guid: str(x.xchan_guid), address: str(x.xchan_addr), url: str(x.xchan_url) };
}

/**
 * Maps the identities the source refers to onto identities of this hub: the source channel onto
 * the imported channel (keys are not moved, so it has a new identity), channels moved here before
 * onto their new identities, and everyone else onto an xchan row of the same hash, added from the
 * source's export (or, for authors it does not list, from what their items say about them).
 *
 * The source is not trusted to speak for this hub: no row it describes may pass for a channel of
 * this hub (by its hash, guid or address, or an address or URL on this hub), and no item it sends
 * is written by a channel of this hub other than the imported one.
 */
export class IdentityMap {
  private readonly moved = new Map<string, string>();
  private readonly byHash = new Map<string, Json>();
  private readonly hashByGuid = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly source: { hash: string; guid: string },
    private readonly own: string,
    exportXchans: Json[],
    /** This hub's host (and port) in addresses and URLs. */
    private readonly localHost: string,
  ) {
    for (const m of movedIdentities(db)) this.moved.set(m.source_hash, m.channel_hash);
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

  /** Whether an identity the source describes would pass for a channel of this hub other than the imported one. */
  private claimsLocal(who: { hash?: string; guid?: string; address?: string; url?: string }): boolean {
    const host = this.localHost.toLowerCase();
    if (who.address && who.address.split('@').pop()!.toLowerCase() === host) return true;
    if (who.url && URL.canParse(who.url) && new URL(who.url).host.toLowerCase() === host) return true;
    return channelWithIdentity(this.db, who, this.own) !== undefined;
  }

  /** An identity here as an item's author: the imported channel, or one that is no other channel of this hub. */
  private asAuthor(hash: string): Author {
    if (hash === this.source.hash || hash === this.own) return { hash: this.own };
    return channelWithIdentity(this.db, { hash }) ? CLAIMS_LOCAL : { hash };
  }

  /** Adds the export's row of an identity unless it claims to be a channel here; whether it is there now. */
  private addDescribed(sourceHash: string): boolean {
    const described = this.byHash.get(sourceHash);
    if (!described || this.claimsLocal(rowIdentity(described))) return false;
    insertXchanIfMissing(this.db, xchanFromExport(described));
    return true;
  }

  /**
   * The identity here of a connection or group member, its xchan row added when the export
   * describes it; undefined when neither this hub nor the export knows it. It may be a channel of
   * this hub (moved here, or named by its own hash): the connection is the imported channel's.
   */
  ensure(sourceHash: string): string | undefined {
    const hash = this.hash(sourceHash);
    if (getXchan(this.db, hash)) return hash;
    return hash === sourceHash && this.addDescribed(sourceHash) ? hash : undefined;
  }

  /**
   * The identity of an item's author (a portable xchan: name, address, url, id = guid, key…): the
   * imported channel, or an identity that is not a channel of this hub. Authors that moved here
   * keep their identity from before (what the source can vouch for).
   */
  author(p: Json | undefined): Author {
    if (!p || typeof p !== 'object') return UNKNOWN;
    const guid = str(p.id);
    const address = str(p.address);
    if (guid && guid === this.source.guid) return { hash: this.own };
    if (this.claimsLocal({ guid, address, url: str(p.url) })) return CLAIMS_LOCAL;
    const listed = guid ? this.hashByGuid.get(guid) : undefined;
    if (listed) return getXchan(this.db, listed) || this.addDescribed(listed) ? this.asAuthor(listed) : CLAIMS_LOCAL;
    const known = (guid && getXchanByGuid(this.db, guid)) || (address && getXchanByAddress(this.db, address));
    if (known) return this.asAuthor(known.xchan_hash);
    if (!guid && !str(p.url)) return UNKNOWN;
    // Not listed by the source: an identity of its own, named by what the item says about it. The
    // hash is derived the way Hearth derives its own (the source's may use another function).
    const hash = createHash('sha256').update(guid ? guid + str(p.key) : str(p.url)).digest('base64url');
    if (channelWithIdentity(this.db, { hash }, this.own)) return CLAIMS_LOCAL;
    const photo = (p.photo && typeof p.photo === 'object' ? p.photo : {}) as Json;
    insertXchanIfMissing(this.db, {
      ...xchanFromExport({}),
      xchan_hash: hash, xchan_guid: guid, xchan_guid_sig: str(p.id_sig), xchan_pubkey: str(p.key), xchan_addr: address,
      xchan_url: str(p.url), xchan_name: str(p.name) || address || 'unknown', xchan_network: str(p.network) || 'unknown',
      xchan_photo_mimetype: str(photo.mimetype) || 'image/png', xchan_photo_m: str(photo.src), xchan_photo_l: str(photo.src), xchan_photo_s: str(photo.src),
    });
    return { hash };
  }

  /** An access list of identities ('<a><b>') with each mapped. */
  aclOfIdentities(acl: string): string {
    return toAclString(fromAclString(acl).map((h) => this.hash(h)));
  }
}
