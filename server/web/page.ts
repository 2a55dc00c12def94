import { escapeHtml } from '../content/render.js';

/** A minimal, self-contained HTML page for the hub's own server-rendered forms. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Hearth</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222;background:#fbf8f4}
h1{font-size:1.5rem;color:#a4431c}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box;border:1px solid #bbb;border-radius:4px}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;background:#a4431c;color:#fff;border:0;border-radius:4px;cursor:pointer}
.error{color:#b00020;background:#fde8e8;padding:.5rem;border-radius:4px}.hint{color:#555;font-size:.9rem}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #ddd}
</style></head><body>${body}</body></html>`;
}

export function errorBox(message: string | undefined): string {
  return message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : '';
}
