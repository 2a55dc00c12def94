import type { MastodonRoute } from '../../admit.js';
import { HttpError } from '../../../../http/errors.js';
import { updateAccount } from '../../../../services/mastodon/profile.js';
import { credentialAccountOf } from './verify_credentials.js';

/** Mastodon sends fields as fields_attributes[n][name|value] (form) or an array/object (JSON). */
function fieldsOf(values: Record<string, string | string[]>): { name: string; value: string }[] | undefined {
  const raw = values.fields_attributes;
  if (typeof raw === 'string') {
    try {
      const v = JSON.parse(raw) as unknown;
      const list = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
      return list.map((f) => ({ name: String((f as { name?: unknown }).name ?? ''), value: String((f as { value?: unknown }).value ?? '') }));
    } catch {
      throw new HttpError(422, 'Validation failed: fields_attributes is not readable');
    }
  }
  const out: { name: string; value: string }[] = [];
  for (const [k, v] of Object.entries(values)) {
    const m = /^fields_attributes\[(\d+)\]\[(name|value)\]$/.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    out[i] ??= { name: '', value: '' };
    out[i]![m[2] as 'name' | 'value'] = Array.isArray(v) ? v[v.length - 1]! : v;
  }
  return out.length ? out.filter(Boolean) : undefined;
}

/** A key of a nested form field that arrived as JSON text (source[privacy] in urlencoded forms). */
function nested(json: string | undefined, key: string): string | undefined {
  if (!json) return undefined;
  try {
    const v = (JSON.parse(json) as Record<string, unknown>)[key];
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** PATCH /api/v1/accounts/update_credentials: display name, note, avatar, header, fields, locked, bot, source[privacy]. */
export const updateCredentialsRoute: MastodonRoute = {
  path: 'accounts/update_credentials',
  methods: ['PATCH', 'POST'],
  auth: 'user',
  scope: 'write:accounts',
  async handler(req) {
    const p = req.params;
    await updateAccount(req.hub, req.user().channel, {
      displayName: p.str('display_name'),
      note: p.str('note'),
      avatar: p.file('avatar'),
      header: p.file('header'),
      fields: fieldsOf(p.values),
      locked: p.has('locked') ? p.bool('locked') : undefined,
      bot: p.has('bot') ? p.bool('bot') : undefined,
      privacy: p.str('source[privacy]') ?? nested(p.str('source'), 'privacy'),
    });
    return credentialAccountOf(req);
  },
};
