/** What the window does with a URL it is asked to open or navigate to. */
export type NavigationDecision = 'allow' | 'external' | 'block';

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The window shows the hub and nothing else: pages of the hub stay in it, web and mail links go
 * to the system's browser and mailer, and anything else (file:, javascript:, custom schemes) is refused.
 */
export function decideNavigation(target: string, appOrigins: readonly string[]): NavigationDecision {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'block';
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && appOrigins.includes(url.origin)) return 'allow';
  if (EXTERNAL_PROTOCOLS.has(url.protocol) && !url.username && !url.password) return 'external';
  return 'block';
}
