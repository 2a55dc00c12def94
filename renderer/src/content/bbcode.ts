import bbobHTML from '@bbob/html';
import { createBbcodeRenderer } from '../../../server/content/bbcode.ts';

/** BBCode to HTML for the composer's preview, by the hub's own renderer; show it only through SafeHtml. */
export const bbcodeToHtml = createBbcodeRenderer(bbobHTML);
