/** What the instance endpoints describe: facts the hub enforces, gathered by the route. */
export interface InstanceFacts {
  domain: string;
  baseUrl: string;
  title: string;
  version: string;
  maxCharacters: number;
  maxUploadBytes: number;
  imageTypes: string[];
  contact: { acct: string; email: string } | null;
  users: number;
  statuses: number;
  /** The hub's VAPID public key, for Web Push subscriptions. */
  vapidKey: string;
}

const POLLS = { max_options: 0, max_characters_per_option: 0, min_expiration: 0, max_expiration: 0 };
const MAX_MEDIA = 4;

function configuration(f: InstanceFacts) {
  return {
    accounts: { max_featured_tags: 0, max_pinned_statuses: 5 },
    statuses: { max_characters: f.maxCharacters, max_media_attachments: MAX_MEDIA, characters_reserved_per_url: 0 },
    media_attachments: {
      supported_mime_types: f.imageTypes,
      image_size_limit: f.maxUploadBytes,
      image_matrix_limit: 8192 * 8192,
      video_size_limit: 0,
      video_frame_rate_limit: 0,
      video_matrix_limit: 0,
    },
    // The hub has no polls: every limit is zero.
    polls: { ...POLLS, max_options: 0 },
  };
}

/** GET /api/v1/instance (Mastodon's V1::Instance). */
export function instanceV1(f: InstanceFacts) {
  return {
    uri: f.domain,
    title: f.title,
    short_description: 'A personal social hub',
    description: 'A personal social hub (Hearth)',
    email: f.contact?.email ?? '',
    version: f.version,
    urls: { streaming_api: f.baseUrl.replace(/^http/, 'ws') },
    stats: { user_count: f.users, status_count: f.statuses, domain_count: 0 },
    thumbnail: null,
    languages: ['en'],
    registrations: false,
    approval_required: false,
    invites_enabled: false,
    configuration: configuration(f),
    contact_account: null,
    rules: [],
  };
}

/** GET /api/v2/instance (Mastodon's Instance). */
export function instanceV2(f: InstanceFacts) {
  return {
    domain: f.domain,
    title: f.title,
    version: f.version,
    source_url: 'https://github.com/hearth-hub/hearth',
    description: 'A personal social hub (Hearth)',
    usage: { users: { active_month: f.users } },
    thumbnail: { url: `${f.baseUrl}/favicon.ico`, blurhash: null, versions: {} },
    icon: [],
    languages: ['en'],
    configuration: {
      urls: { streaming: f.baseUrl.replace(/^http/, 'ws'), status: null },
      vapid: { public_key: f.vapidKey },
      ...configuration(f),
      translation: { enabled: false },
    },
    registrations: { enabled: false, approval_required: false, message: null, url: null },
    api_versions: { mastodon: 2 },
    contact: { email: f.contact?.email ?? '', account: null },
    rules: [],
  };
}
