/** How to reach an S3-compatible service; what the settings leave empty comes from AWS_* variables. */
export interface S3Access {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** s3://bucket/prefix → its bucket and key prefix ('' or ending in '/'); undefined for anything else. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | undefined {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!m) return undefined;
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
}

/** The access settings, completed from the standard variables. */
export function s3AccessFrom(settings: S3Access, env: NodeJS.ProcessEnv = process.env): Required<Pick<S3Access, 'region'>> & S3Access {
  return {
    endpoint: settings.endpoint || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
    region: settings.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    accessKeyId: settings.accessKeyId || env.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: settings.secretAccessKey || env.AWS_SECRET_ACCESS_KEY || undefined,
  };
}
