/**
 * Twitter's account/settings answer for a channel: time zone, whether it approves followers by hand
 * (protected), who may comment on its posts (comment_policy, Hearth's own) and fixed preferences.
 */
export function accountSettings(c: { screenName: string; timezone: string; language: string; protected: boolean; commentPolicy: string }) {
  return {
    time_zone: { name: c.timezone, utc_offset: utcOffsetSeconds(c.timezone), tzinfo_name: c.timezone },
    protected: c.protected,
    comment_policy: c.commentPolicy,
    screen_name: c.screenName,
    always_use_https: false,
    use_cookie_personalization: false,
    sleep_time: { enabled: false, end_time: null, start_time: null },
    geo_enabled: false,
    language: c.language,
    discoverable_by_email: false,
    discoverable_by_mobile_phone: false,
    display_sensitive_media: false,
    allow_contributor_request: 'none',
    allow_dms_from: 'following',
    allow_dm_groups_from: 'following',
    translator_type: 'none',
  };
}

/** The zone's current offset from UTC in seconds (0 for an unknown zone). */
function utcOffsetSeconds(zone: string, at = new Date()): number {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  } catch {
    return 0;
  }
}

/** Twitter's help/configuration: the limits clients size their uploads and texts by. */
export function helpConfiguration(limits: { maxUploadBytes: number }) {
  return {
    characters_reserved_per_media: 24,
    dm_text_character_limit: 10000,
    max_media_per_upload: 4,
    photo_size_limit: limits.maxUploadBytes,
    photo_sizes: {
      thumb: { h: 150, w: 150, resize: 'crop' },
      small: { h: 680, w: 680, resize: 'fit' },
      medium: { h: 1200, w: 1200, resize: 'fit' },
      large: { h: 2048, w: 2048, resize: 'fit' },
    },
    short_url_length: 23,
    short_url_length_https: 23,
    non_username_paths: ['api', 'attach', 'channel', 'login', 'logout', 'oauth', 'photo', 'photos', 'settings', 'setup'],
  };
}
