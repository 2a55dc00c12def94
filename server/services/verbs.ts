/** Activity vocabulary URIs used in item.verb and item.obj_type (AS1 forms, as the seed asks). */
export const VERB = {
  POST: 'http://activitystrea.ms/schema/1.0/post',
  SHARE: 'http://activitystrea.ms/schema/1.0/share',
  LIKE: 'http://activitystrea.ms/schema/1.0/like',
  DISLIKE: 'http://purl.org/zot/activity/dislike',
  ATTENDYES: 'http://purl.org/zot/activity/attendyes',
  ATTENDNO: 'http://purl.org/zot/activity/attendno',
  ATTENDMAYBE: 'http://purl.org/zot/activity/attendmaybe',
} as const;

export const OBJ = {
  NOTE: 'http://activitystrea.ms/schema/1.0/note',
  COMMENT: 'http://activitystrea.ms/schema/1.0/comment',
  PHOTO: 'http://activitystrea.ms/schema/1.0/photo',
  FILE: 'http://activitystrea.ms/schema/1.0/file',
} as const;

/** Verbs of items that are content (posts and comments) rather than activities on other items. */
export const CONTENT_VERBS = [VERB.POST, VERB.SHARE, 'Create'] as const;

/** Activity verbs by their short names (ext/activity/<verb>). */
export const ACTIVITY_VERBS: Record<string, string> = {
  like: VERB.LIKE,
  dislike: VERB.DISLIKE,
  attendyes: VERB.ATTENDYES,
  attendno: VERB.ATTENDNO,
  attendmaybe: VERB.ATTENDMAYBE,
};

/** Verbs that exclude each other on one item for one author. */
export const EXCLUSIVE_GROUPS: string[][] = [[VERB.ATTENDYES, VERB.ATTENDNO, VERB.ATTENDMAYBE], [VERB.LIKE, VERB.DISLIKE]];
