export interface SiteFacts {
  name: string;
  baseUrl: string;
  /** Longest post body accepted, in characters. */
  textLimit: number;
  platform: string;
  version: string;
  schemaVersion: number;
}

/** compat/config: the site description StatusNet clients read (`{"site": …}`, XML root `config`). */
export function compatConfig(s: SiteFacts) {
  const url = new URL(s.baseUrl);
  const https = url.protocol === 'https:';
  return {
    site: {
      name: s.name,
      server: url.hostname,
      theme: 'default',
      path: url.pathname.replace(/\/+$/, ''),
      logo: `${s.baseUrl}/favicon.ico`,
      fancy: true,
      language: 'en',
      // The owner's address is a login name; it is not published to anonymous callers.
      email: '',
      broughtby: '',
      broughtbyurl: '',
      timezone: 'UTC',
      closed: true,
      inviteonly: false,
      private: false,
      textlimit: String(s.textLimit),
      sslserver: null,
      ssl: https ? 'always' : '0',
      shorturllength: '30',
      friendica: {
        FRIENDICA_PLATFORM: s.platform,
        FRIENDICA_VERSION: s.version,
        DB_UPDATE_VERSION: s.schemaVersion,
      },
    },
  };
}
