import QRCode from 'qrcode';
import { escapeHtml } from '../../server/content/render.js';

/**
 * A small self-contained page showing the address other devices use to reach the hub, with a
 * QR code for phones. Shown in its own window; it loads nothing from anywhere.
 */
export async function lanPageHtml(url: string): Promise<string> {
  const qr = await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  // Mastodon apps: the phone's browser opens the authorize page, which says what to enter in the app.
  const authorize = `${url.replace(/\/+$/, '')}/oauth/authorize`;
  const appQr = await QRCode.toString(authorize, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  const u = escapeHtml(url);
  const a = escapeHtml(authorize);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Hearth on your network</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222;background:#fbf8f4;text-align:center}
h1{font-size:1.2rem;color:#a4431c}.qr{width:240px;height:240px;margin:1rem auto;background:#fff}
.qr svg{width:100%;height:100%}code{font-size:1.1rem;user-select:all}p{font-size:.9rem;color:#444}
</style></head><body>
<h1>Hearth on your network</h1>
<p>Other devices on this network reach your hub at</p>
<p><code>${u}</code></p>
<div class="qr" role="img" aria-label="QR code for ${u}">${qr}</div>
<p>Scan it with a phone, or enter the address in an app that speaks the Hubzilla or Twitter/GNU social API.
Log in with your nickname and password.</p>
<h2 style="font-size:1rem;color:#a4431c;margin-top:2rem">Mastodon apps on your phone</h2>
<p>Tusky, Ice Cubes, Fedilab, Elk, toot…: enter <code>${u}</code> as the server in the app. It brings you to the hub's
authorize page, where you log in, choose the channel and approve.</p>
<div class="qr" role="img" aria-label="QR code for ${a}">${appQr}</div>
<p>This code opens the authorize page on your phone: <code>${a}</code></p>
</body></html>`;
}
