/** Hearth's own release. */
export const HEARTH_VERSION = '0.1.0';
/**
 * The version the native API reports. Hubzilla importers compare it with 6.3.4 to decide whether
 * automatic content import is possible, so it is reported in Hubzilla's numbering.
 */
export const HEARTH_API_VERSION = '10.3.43';
/** The StatusNet API version the compatibility API reports (compat/version). */
export const COMPAT_API_VERSION = '0.9.7';
