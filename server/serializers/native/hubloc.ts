/** A location of an identity as Hubzilla's export lists it (hubloc row), integers as strings. */
export interface HublocFacts {
  id: number;
  guid: string;
  guidSig: string;
  hash: string;
  address: string;
  channelUrl: string;
  baseUrl: string;
  /** The base URL signed with the identity's key ('sha256.' + base64url), as Hubzilla proves a location. */
  urlSig: string;
  since: string;
}

export function hublocRecord(h: HublocFacts): Record<string, string> {
  return {
    hubloc_id: String(h.id),
    hubloc_guid: h.guid,
    hubloc_guid_sig: h.guidSig,
    hubloc_id_url: h.channelUrl,
    hubloc_hash: h.hash,
    hubloc_addr: h.address,
    hubloc_network: 'zot6',
    hubloc_flags: '0',
    hubloc_status: '0',
    hubloc_url: h.baseUrl,
    hubloc_url_sig: h.urlSig,
    // Hearth has no site key and no zot endpoint: the site id, callback and site key stay empty.
    hubloc_site_id: '',
    hubloc_host: new URL(h.baseUrl).host,
    hubloc_callback: '',
    hubloc_connect: '',
    hubloc_sitekey: '',
    hubloc_updated: h.since,
    hubloc_connected: h.since,
    hubloc_primary: '1',
    hubloc_orphancheck: '0',
    hubloc_error: '0',
    hubloc_deleted: '0',
  };
}
