import { safeUrl } from './safeUrl.ts';

/** A picture in a post's text: the image shown, its description, and where its link led. */
export interface Picture {
  src: string;
  alt: string;
  href?: string;
}

/** An image alone, or an image alone in a link (how photos are posted: [zrl][zmg]…[/zmg][/zrl]). */
function pictureOf(node: Node): Picture | undefined {
  if (!(node instanceof Element)) return undefined;
  const tag = node.tagName.toLowerCase();
  let img: Element | undefined;
  let href: string | undefined;
  if (tag === 'img') img = node;
  else if (tag === 'a') {
    const only = node.children.length === 1 ? node.children[0] : undefined;
    if (!only || only.tagName.toLowerCase() !== 'img' || (node.textContent ?? '').trim()) return undefined;
    img = only;
    href = safeUrl(node.getAttribute('href'), 'link');
  }
  const src = img && safeUrl(img.getAttribute('src'), 'image');
  return src ? { src, alt: img!.getAttribute('alt') ?? '', href } : undefined;
}

const isBreak = (node: Node) => node instanceof Element && node.tagName.toLowerCase() === 'br';
const isBlank = (node: Node) => node.nodeType === Node.TEXT_NODE && !(node.textContent ?? '').trim();
/** Elements after which a new line begins. */
const BLOCKS = new Set(['br', 'p', 'div', 'ul', 'ol', 'blockquote', 'pre', 'table', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'details']);
const endsLine = (node: Node) => node instanceof Element && BLOCKS.has(node.tagName.toLowerCase());

/**
 * Takes the runs of pictures that begin a line (photos attached to a post come first, one a line)
 * out of the parsed HTML, in `root` and its paragraphs: each run is left as its first node, mapped
 * to its pictures, so that it can be shown as one grid; the line break closing the run goes too.
 */
export function takePictureRuns(root: Element): Map<Node, Picture[]> {
  const runs = new Map<Node, Picture[]>();
  for (const container of [root, ...Array.from(root.querySelectorAll('p'))]) {
    const nodes = Array.from(container.childNodes);
    let lineStart = true;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      const first = lineStart ? pictureOf(node) : undefined;
      if (!first) {
        if (!isBlank(node)) lineStart = endsLine(node);
        continue;
      }
      const pictures = [first];
      let end = i;
      for (let j = i + 1; j < nodes.length; j++) {
        const picture = pictureOf(nodes[j]!);
        if (picture) {
          pictures.push(picture);
          end = j;
        } else if (!isBreak(nodes[j]!) && !isBlank(nodes[j]!)) break;
      }
      // The break ending the last picture's line goes with the run: the grid is a block of its own.
      let next = end + 1;
      while (next < nodes.length && isBlank(nodes[next]!)) next++;
      if (next < nodes.length && isBreak(nodes[next]!)) end = next;
      for (const gone of nodes.slice(i + 1, end + 1)) gone.parentNode?.removeChild(gone);
      runs.set(node, pictures);
      i = end;
      lineStart = true;
    }
  }
  return runs;
}
