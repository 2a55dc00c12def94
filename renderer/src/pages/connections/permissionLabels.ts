/** Hubzilla's permission names in words (what the connection may do on this channel). */
export const PERMISSION_LABELS: Record<string, string> = {
  view_stream: 'See my posts and stream',
  send_stream: 'Send me their posts',
  view_profile: 'See my profile',
  view_contacts: 'See my connections',
  view_storage: 'See my photos and files',
  write_storage: 'Upload and change my photos and files',
  view_pages: 'See my web pages',
  view_wiki: 'See my wikis',
  write_pages: 'Edit my web pages',
  write_wiki: 'Edit my wikis',
  post_wall: 'Post on my wall',
  post_comments: 'Comment on and like my posts',
  post_mail: 'Send me direct messages',
  post_like: 'Like my profile and things',
  chat: 'Chat with me',
  republish: 'Republish my public posts',
  delegate: 'Manage my channel (full control)',
};

export const permissionLabel = (perm: string) => PERMISSION_LABELS[perm] ?? perm.replace(/_/g, ' ');
