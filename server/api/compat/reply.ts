import type { XmlOptions } from '../../http/xml.js';

/** A compat API result with the XML root element (and list element names) it renders with. */
export class CompatReply {
  constructor(
    public readonly value: unknown,
    public readonly root: string,
    public readonly xml: XmlOptions = {},
  ) {}
}

export function reply(value: unknown, root: string, xml: XmlOptions = {}): CompatReply {
  return new CompatReply(value, root, xml);
}

/** Roots that Friendica renders without namespace declarations. */
export const ROOTS_WITHOUT_NAMESPACES = new Set(['ok', 'hash', 'config', 'version', 'ids', 'notes', 'photos']);
