/** The text of a message's HTML, for one-line previews. */
export function plainText(html: string): string {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html').body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}
