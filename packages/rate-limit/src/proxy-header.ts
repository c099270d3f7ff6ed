// PROXY protocol v2 (HAProxy's spec) between `pnpm start`'s launcher and the web apps it proxies to, so the
// apps count the real client, not the launcher's 127.0.0.1. Chosen over a secret-carrying HTTP header: the
// launcher pipes bytes and would have to parse every request of a kept-alive connection to add one; this is
// one header per connection, written before any client byte. A client on the same host could write one too,
// so the header carries the launcher's per-run secret (an application TLV) and a connection without it is closed.
import { timingSafeEqual } from "node:crypto";
import { isIP, type Socket } from "node:net";

const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
/**
 * Set by `pnpm start`'s launcher for the apps it forwards connections to: every connection then starts with a
 * header carrying this secret, and one that does not is closed (client-stamp.ts).
 */
export const PROXY_SECRET_ENV = "VIGIL_PROXY_SECRET";
/** First of the types the spec leaves to applications (0xE0–0xEF). */
const TLV_SECRET = 0xe0;
const MAX_HEADER = 16 + 36 + 3 + 256;

export interface Endpoint {
  address: string;
  port: number;
}

const unmapped = (a: string) => (a.startsWith("::ffff:") && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

function ipBytes(address: string, family: 4 | 6): Buffer {
  if (family === 4) return Buffer.from(address.split(".").map(Number));
  const [head = "", tail = ""] = address.split("::");
  const groups = (s: string) => (s ? s.split(":") : []);
  let h = groups(head);
  let t = groups(address.includes("::") ? tail : "");
  const last = (address.includes("::") ? t : h).at(-1);
  // An IPv4 tail (::ffff:1.2.3.4 style) is two groups.
  if (last && isIP(last) === 4) {
    const [a, b, c, d] = last.split(".").map(Number) as [number, number, number, number];
    const v4 = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (address.includes("::")) t = [...t.slice(0, -1), ...v4];
    else h = [...h.slice(0, -1), ...v4];
  }
  const all = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  const out = Buffer.alloc(16);
  for (const [i, g] of all.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return out;
}

function ipText(b: Buffer): string {
  const mapped = b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b.readUInt16BE(10) === 0xffff;
  if (b.length === 4 || mapped) return [...b.subarray(b.length - 4)].join(".");
  const full = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(":");
  // The URL parser writes IPv6 in its canonical short form, as sockets report it.
  return new URL(`http://[${full}]`).hostname.slice(1, -1);
}

/** The header the launcher writes first on a connection it forwards: who the client is, and the secret. */
export function proxyHeader(source: Endpoint, destination: Endpoint, secret: string): Buffer {
  const src = unmapped(source.address);
  const dst = unmapped(destination.address);
  const v4 = isIP(src) === 4 && isIP(dst) === 4;
  const family = v4 ? 4 : 6;
  const toFamily = (a: string) => (family === 6 && isIP(a) === 4 ? `::ffff:${a}` : a);
  const ports = Buffer.alloc(4);
  ports.writeUInt16BE(source.port, 0);
  ports.writeUInt16BE(destination.port, 2);
  const value = Buffer.from(secret);
  const tlv = Buffer.alloc(3);
  tlv.writeUInt8(TLV_SECRET, 0);
  tlv.writeUInt16BE(value.length, 1);
  const body = Buffer.concat([ipBytes(toFamily(src), family), ipBytes(toFamily(dst), family), ports, tlv, value]);
  const head = Buffer.alloc(4);
  head.writeUInt8(0x21, 0); // version 2, PROXY
  head.writeUInt8(v4 ? 0x11 : 0x21, 1); // TCP over IPv4 / IPv6
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([SIGNATURE, head, body]);
}

/**
 * The client address and header length when `buf` starts with a whole header carrying `secret`; undefined
 * while more bytes are needed; an Error (the reason) when it does not or cannot.
 */
export function parseProxyHeader(buf: Buffer, secret: string): { address: string; length: number } | Error | undefined {
  const have = Math.min(buf.length, SIGNATURE.length);
  if (!buf.subarray(0, have).equals(SIGNATURE.subarray(0, have))) return new Error("no PROXY v2 header");
  if (buf.length < 16) return undefined;
  const length = 16 + buf.readUInt16BE(14);
  if (buf[12] !== 0x21 || length > MAX_HEADER) return new Error("not a PROXY v2 header from the launcher");
  if (buf.length < length) return undefined;
  const addressBytes = buf[13] === 0x11 ? 4 : buf[13] === 0x21 ? 16 : 0;
  if (!addressBytes) return new Error("not a TCP connection");
  let at = 16 + addressBytes * 2 + 4;
  let presented: Buffer | undefined;
  while (at + 3 <= length) {
    const size = buf.readUInt16BE(at + 1);
    if (buf[at] === TLV_SECRET) presented = buf.subarray(at + 3, at + 3 + size);
    at += 3 + size;
  }
  const expected = Buffer.from(secret);
  if (!presented || presented.length !== expected.length || !timingSafeEqual(presented, expected))
    return new Error("PROXY header without the launcher's secret");
  return { address: ipText(buf.subarray(16, 16 + addressBytes)), length };
}

/** Reads the header off `socket` (what follows stays unread for HTTP); rejects when it is missing or wrong. */
export function readProxyHeader(socket: Socket, secret: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const finish = (err: Error | null, address?: string) => {
      clearTimeout(timer);
      socket.off("readable", onReadable).off("end", onEnd).off("close", onEnd);
      if (err) reject(err);
      else resolve(address!);
    };
    const onEnd = () => finish(new Error("closed before its PROXY header"));
    const timer = setTimeout(() => finish(new Error("no PROXY header in time")), timeoutMs);
    const onReadable = () => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) {
        buf = Buffer.concat([buf, chunk]);
        const parsed = parseProxyHeader(buf, secret);
        if (parsed === undefined) continue;
        if (parsed instanceof Error) return finish(parsed);
        if (buf.length > parsed.length) socket.unshift(buf.subarray(parsed.length));
        return finish(null, parsed.address);
      }
    };
    socket.on("readable", onReadable).once("end", onEnd).once("close", onEnd);
  });
}
