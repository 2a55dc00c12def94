import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { renameChannel } from '../../store/channels.js';
import { setChannelLocation, updateDefaultProfile } from '../../store/profile-fields.js';
import { badRequest } from '../../http/errors.js';
import { emitProfileChange } from '../profile-events.js';

export interface ProfileUpdate {
  name?: string;
  description?: string;
  location?: string;
  url?: string;
}

const LIMITS = { name: 190, description: 1000, location: 190, url: 1000 } as const;

/**
 * account/update_profile: display name (channel, identity and default profile), description,
 * location and homepage. Fields left undefined are kept; an empty name is ignored. All or nothing.
 */
export function updateProfile(hub: Hub, channel: ChannelRow, u: ProfileUpdate): void {
  for (const k of Object.keys(LIMITS) as (keyof ProfileUpdate)[]) {
    const v = u[k];
    if (v !== undefined && v.length > LIMITS[k]) throw badRequest(`${k} is too long (at most ${LIMITS[k]} characters)`);
  }
  const name = u.name?.trim();
  const url = u.url?.trim();
  if (url && !/^https?:\/\/[^\s]+$/i.test(url)) throw badRequest('url must be an http or https URL');
  hub.db.transaction(() => {
    if (name) renameChannel(hub.db, channel.channel_id, name);
    updateDefaultProfile(hub.db, channel.channel_id, { fullname: name || undefined, pdesc: u.description?.trim(), homepage: url });
    if (u.location !== undefined) setChannelLocation(hub.db, channel.channel_id, u.location.trim());
    emitProfileChange(hub, channel);
  })();
}
