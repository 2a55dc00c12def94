import type { ProfileRow, XchanRow } from '../../store/rows.js';
import type { CompatUser } from './user.js';

/** One profile as ext/profile/show lists it (notes §2.10). */
export interface CompatProfile {
  profile_id: number;
  profile_name: string;
  is_default: boolean;
  hide_friends: boolean;
  profile_photo: string;
  profile_thumb: string;
  publish: boolean;
  net_publish: boolean;
  description: string;
  date_of_birth: string;
  address: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  hometown: string;
  gender: string;
  marital: string;
  marital_with: string;
  marital_since: string;
  sexual: string;
  politic: string;
  religion: string;
  public_keywords: string;
  private_keywords: string;
  likes: string;
  dislikes: string;
  about: string;
  music: string;
  book: string;
  tv: string;
  film: string;
  interest: string;
  romance: string;
  work: string;
  education: string;
  social_networks: string;
  homepage: string;
  users: never[];
  custom_fields: { label: string; value: string }[];
}

export interface CompatProfiles {
  multi_profiles: boolean;
  global_dir: string;
  friendica_owner: CompatUser;
  profiles: CompatProfile[];
}

const text = (v: string | number | undefined) => (v === undefined ? '' : String(v));

export function compatProfile(p: ProfileRow, xchan: Pick<XchanRow, 'xchan_photo_l' | 'xchan_photo_m'>): CompatProfile {
  return {
    profile_id: p.id,
    profile_name: p.profile_name,
    is_default: p.is_default === 1,
    hide_friends: Number(p.hide_friends) === 1,
    profile_photo: p.photo || xchan.xchan_photo_l,
    profile_thumb: p.thumb || xchan.xchan_photo_m,
    publish: Number(p.publish) === 1,
    net_publish: Number(p.publish) === 1,
    description: p.pdesc,
    date_of_birth: text(p.dob),
    address: text(p.address),
    city: text(p.locality),
    region: text(p.region),
    postal_code: text(p.postal_code),
    country: text(p.country_name),
    hometown: text(p.hometown),
    gender: text(p.gender),
    marital: text(p.marital),
    marital_with: text(p.partner),
    marital_since: text(p.howlong),
    sexual: text(p.sexual),
    politic: text(p.politic),
    religion: text(p.religion),
    public_keywords: text(p.keywords),
    private_keywords: '',
    likes: text(p.likes),
    dislikes: text(p.dislikes),
    about: p.about,
    music: text(p.music),
    book: text(p.book),
    tv: text(p.tv),
    film: text(p.film),
    interest: text(p.interest),
    romance: text(p.romance),
    work: text(p.employment),
    education: text(p.education),
    social_networks: text(p.contact),
    homepage: text(p.homepage),
    users: [],
    custom_fields: [],
  };
}

/** The ext/profile/show answer for the owner's profiles (all of them, or the one asked for). Pure. */
export function compatProfiles(owner: CompatUser, xchan: Pick<XchanRow, 'xchan_photo_l' | 'xchan_photo_m'>, profiles: ProfileRow[], total: number): CompatProfiles {
  return { multi_profiles: total > 1, global_dir: '', friendica_owner: owner, profiles: profiles.map((p) => compatProfile(p, xchan)) };
}
