import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { setPConfig } from '../../store/config.js';
import { HttpError } from '../../http/errors.js';
import type { FileSource } from '../attachments.js';
import { createPhoto, photoUrls, PROFILE_ALBUM, setProfilePhoto } from '../photos.js';
import { PUBLIC_ACL } from '../acl.js';
import { updateProfile } from '../compat/profile.js';
import { setApprovesFollowersByHand } from '../social-settings.js';

export interface AccountUpdate {
  displayName?: string;
  note?: string;
  avatar?: FileSource;
  header?: FileSource;
  fields?: { name: string; value: string }[];
  locked?: boolean;
  bot?: boolean;
  privacy?: string;
}

const MAX_FIELDS = 4;

function invalid(message: string): HttpError {
  return new HttpError(422, `Validation failed: ${message}`);
}

/**
 * PATCH update_credentials: the same profile the other APIs and the UI edit (name, description,
 * profile photo); the header picture is a public photo of the channel in its profile album.
 */
export async function updateAccount(hub: Hub, channel: ChannelRow, u: AccountUpdate): Promise<void> {
  const fields = u.fields?.filter((f) => f.name.trim() || f.value.trim());
  if (fields && fields.length > MAX_FIELDS) throw invalid(`at most ${MAX_FIELDS} profile fields`);
  if (fields?.some((f) => f.name.length > 255 || f.value.length > 2047)) throw invalid('a profile field is too long');
  if (u.privacy !== undefined && !['public', 'unlisted', 'private', 'direct'].includes(u.privacy)) throw invalid('source[privacy] must be public, unlisted, private or direct');
  if (u.displayName !== undefined && u.displayName.length > 190) throw invalid('Display name is too long (maximum is 190 characters)');
  if (u.note !== undefined && u.note.length > 1000) throw invalid('Note is too long (maximum is 1000 characters)');
  try {
    if (u.avatar) await setProfilePhoto(hub, channel, u.avatar);
    if (u.header) {
      const record = await createPhoto(hub, channel, u.header, { album: PROFILE_ALBUM, acl: PUBLIC_ACL, scales: [0, 1, 2, 3], title: 'Header' });
      const p = record.photos.find((r) => r.imgscale === 0)!;
      setPConfig(hub.db, channel.channel_id, 'mastodon', 'header', photoUrls(hub, channel.channel_address, p.resource_id, p.mimetype).scale(0));
    }
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw invalid(err.message);
    throw err;
  }
  hub.db.transaction(() => {
    updateProfile(hub, channel, { name: u.displayName, description: u.note });
    if (fields) setPConfig(hub.db, channel.channel_id, 'mastodon', 'fields', JSON.stringify(fields.map((f) => ({ name: f.name.trim(), value: f.value.trim() }))));
    if (u.locked !== undefined) setApprovesFollowersByHand(hub, channel, u.locked);
    if (u.bot !== undefined) setPConfig(hub.db, channel.channel_id, 'mastodon', 'bot', u.bot ? '1' : '0');
    if (u.privacy !== undefined) setPConfig(hub.db, channel.channel_id, 'mastodon', 'privacy', u.privacy);
  })();
}
