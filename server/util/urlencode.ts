/** PHP's urlencode(): like encodeURIComponent, but spaces become '+' and !'()* are escaped too. */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}
