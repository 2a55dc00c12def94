#!/usr/bin/env node
// Draws Hearth's icons (a fireplace with a flame) and writes them under build/icons/: PNGs in the
// sizes Linux desktops use (NxN.png), icon.ico for Windows, icon.icns for macOS, and tray icons.
// The outputs are committed; run `node scripts/make-icons.js` again after changing the drawing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const OUT = fileURLToPath(new URL('../build/icons/', import.meta.url));

const FLAME_OUTER = 'M512 790C424 790 374 734 382 662C390 598 440 566 458 500C494 538 508 578 504 616C540 594 562 552 560 498C626 560 650 626 642 690C634 752 590 790 512 790Z';
const FLAME_INNER = 'M512 790C468 790 444 762 448 726C452 694 478 676 488 640C506 662 512 684 510 704C530 692 542 670 542 646C574 680 584 712 580 740C576 770 552 790 512 790Z';

const defs = `<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#d4693a"/><stop offset="1" stop-color="#8e3417"/></linearGradient>
<linearGradient id="fire" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffcf5c"/><stop offset="1" stop-color="#ff8a2a"/></linearGradient>
</defs>`;

/** The full icon: a rounded tile, a cream fireplace arch with a dark opening, a flame in it. */
const fullSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">${defs}
<rect x="64" y="64" width="896" height="896" rx="200" fill="url(#bg)"/>
<path d="M262 820V484A250 250 0 0 1 762 484V820Z" fill="#fbf1e6"/>
<path d="M346 820V500A166 166 0 0 1 678 500V820Z" fill="#4f1d0e"/>
<path d="${FLAME_OUTER}" fill="url(#fire)"/>
<path d="${FLAME_INNER}" fill="#fff3c4"/>
<rect x="212" y="806" width="600" height="58" rx="20" fill="#fbf1e6"/>
</svg>`;

/** Small sizes: the flame alone on the tile, which stays legible at 16 px. */
const smallSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">${defs}
<rect x="32" y="32" width="960" height="960" rx="200" fill="url(#bg)"/>
<g transform="translate(512 560) scale(1.9) translate(-512 -645)">
<path d="${FLAME_OUTER}" fill="#fff3c4"/>
<path d="${FLAME_INNER}" fill="#ff9a3a"/>
</g></svg>`;

/** Tray: the flame's silhouette, coloured or black (a macOS template image). */
const traySvg = (fill) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
<g transform="translate(512 520) scale(2.6) translate(-512 -645)"><path d="${FLAME_OUTER}" fill="${fill}"/></g></svg>`;

const png = (svg, size) => sharp(Buffer.from(svg), { density: Math.max(72, (72 * size) / 256) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

async function iconPng(size) {
  return png(size <= 32 ? smallSvg : fullSvg, size);
}

/** A BMP (DIB) image as ICO wants it: 32-bit BGRA rows bottom-up, twice the height, plus an AND mask. */
async function icoBitmap(size) {
  const { data } = await sharp(await iconPng(size)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const src = ((size - 1 - y) * size + x) * 4;
      const dst = (y * size + x) * 4;
      pixels[dst] = data[src + 2];
      pixels[dst + 1] = data[src + 1];
      pixels[dst + 2] = data[src];
      pixels[dst + 3] = data[src + 3];
    }
  }
  const maskRow = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, pixels, Buffer.alloc(maskRow * size)]);
}

/** ICO with bitmaps up to 128 px and a PNG at 256 px, as Windows itself ships them. */
async function ico() {
  const sizes = [16, 24, 32, 48, 64, 128, 256];
  const images = await Promise.all(sizes.map((s) => (s === 256 ? iconPng(s) : icoBitmap(s))));
  const dir = Buffer.alloc(6 + 16 * sizes.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(sizes.length, 4);
  let offset = dir.length;
  sizes.forEach((s, i) => {
    const e = 6 + 16 * i;
    dir.writeUInt8(s >= 256 ? 0 : s, e);
    dir.writeUInt8(s >= 256 ? 0 : s, e + 1);
    dir.writeUInt16LE(1, e + 4);
    dir.writeUInt16LE(32, e + 6);
    dir.writeUInt32LE(images[i].length, e + 8);
    dir.writeUInt32LE(offset, e + 12);
    offset += images[i].length;
  });
  return Buffer.concat([dir, ...images]);
}

/** ICNS made of PNG entries (supported since macOS 10.7). */
async function icns() {
  const types = [
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
    ['ic11', 32],
    ['ic12', 64],
    ['ic13', 256],
    ['ic14', 512],
  ];
  const entries = await Promise.all(
    types.map(async ([type, size]) => {
      const data = await iconPng(size);
      const head = Buffer.alloc(8);
      head.write(type, 0, 'ascii');
      head.writeUInt32BE(data.length + 8, 4);
      return Buffer.concat([head, data]);
    }),
  );
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + entries.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([head, ...entries]);
}

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'hearth.svg'), fullSvg + '\n');
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) writeFileSync(join(OUT, `${size}x${size}.png`), await iconPng(size));
writeFileSync(join(OUT, 'icon.ico'), await ico());
writeFileSync(join(OUT, 'icon.icns'), await icns());
writeFileSync(join(OUT, 'tray.png'), await png(traySvg('#d4693a'), 32));
writeFileSync(join(OUT, 'tray@2x.png'), await png(traySvg('#d4693a'), 64));
writeFileSync(join(OUT, 'trayTemplate.png'), await png(traySvg('#000000'), 16));
writeFileSync(join(OUT, 'trayTemplate@2x.png'), await png(traySvg('#000000'), 32));
console.log(`icons written to ${OUT}`);
