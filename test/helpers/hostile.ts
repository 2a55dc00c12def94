import { createDeflate, deflateSync } from 'node:zlib';

/**
 * Hostile parameter values, already urlencoded (so that invalid UTF-8 can be sent as raw bytes).
 * Each has a name for failure messages.
 */
export const HOSTILE_VALUES: [string, string][] = [
  ['empty', ''],
  ['blank', '%20%20'],
  ['negative', '-1'],
  ['zero', '0'],
  ['huge number', '99999999999999999999999999'],
  ['int64 overflow', '9223372036854775808'],
  ['float', '1.5'],
  ['exponent', '1e309'],
  ['NaN', 'NaN'],
  ['hex', '0x10'],
  ['non-numeric', 'abc'],
  ['sql quote', encodeURIComponent("1' OR '1'='1")],
  ['sql drop', encodeURIComponent('1; DROP TABLE item; --')],
  ['sql like wildcard', encodeURIComponent('%_%')],
  ['path traversal', encodeURIComponent('../../../../etc/passwd')],
  ['encoded traversal', encodeURIComponent('..%2F..%2F..%2Fetc%2Fpasswd')],
  ['NUL byte', '%00'],
  ['invalid UTF-8', '%FF%FE%C3%28'],
  ['lone surrogate (CESU)', '%ED%A0%80'],
  ['control characters', '%01%02%1B%7F'],
  ['script', encodeURIComponent('<script>alert(1)</script>')],
  ['broken JSON', encodeURIComponent('{"name": [')],
  ['JSON of wrong type', encodeURIComponent('[[[[1]]], {"a": null}]')],
  ['long string', 'x'.repeat(20_000)],
  ['emoji and RTL', encodeURIComponent('😀\u202Egnp.exe')],
];

/** The same parameter given twice, as an array, and as an object (wrong types). */
export function wrongTypeForms(name: string): [string, string][] {
  const n = encodeURIComponent(name);
  return [
    ['repeated', `${n}=1&${n}=2`],
    ['array', `${n}%5B%5D=1&${n}%5B%5D=abc`],
    ['object', `${n}%5Ba%5D=1&${n}%5Bb%5D%5Bc%5D=2`],
  ];
}

/** Bytes in the form fetch() and Blob accept. */
export function bytes(b: Buffer | string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(typeof b === 'string' ? Buffer.from(b) : b);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid 1-bit greyscale PNG of the given size whose pixels are all black: tiny on disk, huge decoded. */
export function pixelBombPng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const row = 1 + Math.ceil(width / 8);
  const raw = Buffer.alloc(row * height); // filter byte 0 and zero pixels on every row
  return bytes(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
}

/**
 * Like pixelBombPng, for heights whose raw rows would not fit in one buffer (1 × 99,000,000 px is
 * about 200 KB): the rows are compressed a few megabytes at a time.
 */
export async function tallPng(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8);
  ihdr.writeUInt8(0, 9);
  const row = 1 + Math.ceil(width / 8);
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(4 * 1024 * 1024);
  for (let left = row * height; left > 0; left -= zeros.length) {
    if (!deflate.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return bytes(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(out)), chunk('IEND', Buffer.alloc(0))]));
}

/** A PNG whose header declares enormous dimensions and whose data is missing. */
export function lyingPngHeader(): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(0x7fffffff, 0);
  ihdr.writeUInt32BE(0x7fffffff, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(6, 9);
  return bytes(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]));
}

/** A PNG that claims the given size and holds its first row of pixels only: a few bytes for a huge image. */
export function hugePng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8);
  ihdr.writeUInt8(0, 9); // 1-bit greyscale
  const firstRow = deflateSync(Buffer.alloc(1 + Math.ceil(width / 8)));
  return bytes(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', firstRow), chunk('IEND', Buffer.alloc(0))]));
}

/** A small real PNG (2×2, red). */
export function tinyPng(): Uint8Array<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9); // RGB
  const raw = Buffer.from([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
  return bytes(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

/** Files that claim to be images but are not, or are images that must not be decoded. */
let cachedFiles: { name: string; filename: string; type: string; data: Uint8Array<ArrayBuffer> }[] | undefined;

export function hostileFiles(): { name: string; filename: string; type: string; data: Uint8Array<ArrayBuffer> }[] {
  const png = tinyPng();
  return (cachedFiles ??= [
    { name: 'text as PNG', filename: 'photo.png', type: 'image/png', data: bytes(Buffer.from('this is not an image at all')) },
    { name: 'empty file', filename: 'empty.jpg', type: 'image/jpeg', data: bytes(Buffer.alloc(0)) },
    { name: 'truncated PNG', filename: 'cut.png', type: 'image/png', data: png.slice(0, 40) },
    { name: 'PNG header with garbage', filename: 'junk.png', type: 'image/png', data: bytes(Buffer.concat([png.subarray(0, 8), Buffer.alloc(2000, 0xab)])) },
    { name: 'JPEG magic only', filename: 'x.jpg', type: 'image/jpeg', data: bytes(Buffer.from('ffd8ffe000104a46494600', 'hex')) },
    { name: 'SVG with script', filename: 'x.svg', type: 'image/svg+xml', data: bytes(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')) },
    { name: 'HTML as GIF', filename: 'x.gif', type: 'image/gif', data: bytes(Buffer.from('GIF89a<html><script>alert(1)</script></html>')) },
    { name: 'lying PNG header', filename: 'lie.png', type: 'image/png', data: lyingPngHeader() },
    { name: 'pixel bomb 20000x20000', filename: 'bomb.png', type: 'image/png', data: pixelBombPng(20000, 20000) },
    { name: 'traversal filename', filename: '../../../../tmp/evil.png', type: 'image/png', data: bytes(Buffer.from('not an image')) },
  ]);
}

/** Multipart bodies that are broken at the framing level. */
export function brokenMultiparts(): { name: string; contentType: string; body: Uint8Array<ArrayBuffer> }[] {
  const b = 'XyZzY';
  return [
    { name: 'truncated multipart', contentType: `multipart/form-data; boundary=${b}`, body: bytes(`--${b}\r\nContent-Disposition: form-data; name="status"\r\n\r\nhello`) },
    { name: 'truncated file part', contentType: `multipart/form-data; boundary=${b}`, body: bytes(Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="media"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), tinyPng().subarray(0, 30)])) },
    { name: 'no boundary', contentType: 'multipart/form-data', body: bytes(Buffer.from('--x\r\n\r\n')) },
    { name: 'wrong boundary', contentType: `multipart/form-data; boundary=${b}`, body: bytes(Buffer.from(`--other\r\nContent-Disposition: form-data; name="status"\r\n\r\nhello\r\n--other--\r\n`)) },
    { name: 'part without disposition', contentType: `multipart/form-data; boundary=${b}`, body: bytes(`--${b}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${b}--\r\n`) },
    { name: 'garbage', contentType: `multipart/form-data; boundary=${b}`, body: bytes(Buffer.from([0, 1, 2, 3, 255, 254, 13, 10, 13, 10])) },
    { name: 'malformed JSON body', contentType: 'application/json', body: bytes(Buffer.from('{"status": "x", ')) },
    { name: 'JSON of wrong shape', contentType: 'application/json', body: bytes('[1, "two", {"three": [null]}]') },
    { name: 'deeply nested JSON', contentType: 'application/json', body: bytes(Buffer.from('['.repeat(5000) + ']'.repeat(5000))) },
    { name: 'invalid UTF-8 text body', contentType: 'text/plain; charset=utf-8', body: bytes(Buffer.from([0xff, 0xfe, 0xc3, 0x28])) },
  ];
}
