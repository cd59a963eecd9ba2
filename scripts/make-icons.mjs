#!/usr/bin/env node
// Writes the app and tray icons in resources/ (PNG, drawn in code so that no image editor
// is needed). Tray states differ in shape as well as colour: ring (idle), disc (ok),
// triangle (failed), hollow square (offline).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = resolve(dirname(fileURLToPath(import.meta.url)), '../resources');
mkdirSync(out, { recursive: true });

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

function png(size, inside) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      // 4×4 supersampling for smooth edges.
      let hits = 0;
      let colour = [0, 0, 0];
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const c = inside((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size);
          if (c) {
            hits++;
            colour = c;
          }
        }
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = colour[0];
      raw[o + 1] = colour[1];
      raw[o + 2] = colour[2];
      raw[o + 3] = Math.round((hits / 16) * 255);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const r = (x, y) => Math.hypot(x - 0.5, y - 0.5);
const GREY = [110, 118, 129];
const GREEN = [26, 127, 55];
const RED = [209, 36, 47];
const BLUE = [9, 105, 218];
const AMBER = [154, 103, 0];
const shapes = {
  idle: (x, y) => (r(x, y) < 0.42 && r(x, y) > 0.28 ? GREY : null),
  // A ring with a gap at the top right: the usual "in progress" spinner.
  running: (x, y) => (r(x, y) < 0.42 && r(x, y) > 0.27 && !(x > 0.5 && y < 0.5) ? BLUE : null),
  // A diamond: something waits for the user.
  'needs-input': (x, y) => (Math.abs(x - 0.5) + Math.abs(y - 0.5) < 0.4 ? AMBER : null),
  ok: (x, y) => (r(x, y) < 0.42 ? GREEN : null),
  failed: (x, y) => (y > 0.12 && y < 0.88 && Math.abs(x - 0.5) < (y - 0.12) * 0.55 ? RED : null),
  offline: (x, y) => {
    const inOuter = x > 0.12 && x < 0.88 && y > 0.12 && y < 0.88;
    const inInner = x > 0.26 && x < 0.74 && y > 0.26 && y < 0.74;
    return inOuter && !inInner ? GREY : null;
  },
};
for (const [name, shape] of Object.entries(shapes)) {
  writeFileSync(resolve(out, `tray-${name}.png`), png(32, shape));
}
// The app icon: a blue disc with a white "D" cut-out (ring plus bar).
writeFileSync(
  resolve(out, 'icon.png'),
  png(256, (x, y) => {
    if (r(x, y) >= 0.46) return null;
    const d = Math.hypot(x - 0.45, y - 0.5);
    const bowl = x >= 0.45 && d < 0.24 && d > 0.15;
    const bar = x > 0.33 && x < 0.42 && y > 0.26 && y < 0.74;
    const arms = x >= 0.33 && x < 0.45 && ((y > 0.26 && y < 0.35) || (y > 0.65 && y < 0.74));
    return bowl || bar || arms ? [255, 255, 255] : BLUE;
  }),
);
console.log(`icons written to ${out}`);
