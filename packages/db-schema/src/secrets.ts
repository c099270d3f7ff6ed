// Secrets at rest: channel configs and monitor headers are stored AES-256-GCM encrypted under a key from
// VIGIL_SECRET_KEY, so a database read (a backup, a leaked file, a stray query) yields no secret.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export const SECRET_KEY_VAR = "VIGIL_SECRET_KEY";
const VERSION = "vgl1";
const KID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const RULE = "must be a base64 32-byte key, or kid:key entries separated by commas (generate one with: openssl rand -base64 32)";

/** The key is missing, malformed or cannot read a stored secret; the message starts with the variable's name. */
export class SecretKeyError extends Error {
  override name = "SecretKeyError";
  constructor(rule: string) {
    super(`${SECRET_KEY_VAR} ${rule}`);
  }
}

/** The first key encrypts; every key decrypts (rotation by key id). */
export interface SecretKeyring {
  primary: string;
  keys: ReadonlyMap<string, Buffer>;
}

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(BASE64.test(text) ? text : "", /[-_]/.test(text) ? "base64url" : "base64");
  if (key.length !== 32) throw new SecretKeyError(`${where}${RULE}`);
  return key;
}

/** Parses VIGIL_SECRET_KEY: `kid:base64,kid:base64,…` (first encrypts) or one bare base64 key. */
export function parseSecretKey(value: string): SecretKeyring {
  const entries = value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new SecretKeyError(`is empty: it ${RULE}`);
  const keys = new Map<string, Buffer>();
  for (const [i, entry] of entries.entries()) {
    const at = entry.indexOf(":");
    const where = entries.length > 1 ? `entry ${i + 1} ` : "";
    if (at < 0 && entries.length > 1) throw new SecretKeyError(`${where}has no key id: each of several keys must be kid:base64`);
    const key = decodeKey(at < 0 ? entry : entry.slice(at + 1), where);
    const kid = at < 0 ? createHash("sha256").update(key).digest("hex").slice(0, 8) : entry.slice(0, at);
    if (!KID.test(kid)) throw new SecretKeyError(`${where}key id "${kid}" must be 1-32 letters, digits, - or _`);
    if (keys.has(kid)) throw new SecretKeyError(`key id "${kid}" appears twice`);
    keys.set(kid, key);
  }
  return { primary: [...keys.keys()][0]!, keys };
}

/** A fresh `kid:base64` key, as `pnpm start` writes under .data/secret-key. */
export function generateSecretKey(): string {
  const key = randomBytes(32);
  return `${createHash("sha256").update(key).digest("hex").slice(0, 8)}:${key.toString("base64")}`;
}

// On globalThis: Next compiles instrumentation and routes into separate module graphs of one process.
const SLOT = Symbol.for("vigil.secretKeyring");
const slot = globalThis as { [SLOT]?: SecretKeyring };

/** Sets the process's keyring (a service at start, a test); undefined forgets it. */
export function setSecretKeyring(keyring: SecretKeyring | undefined): void {
  slot[SLOT] = keyring;
}

/** The process's keyring: the one set, else VIGIL_SECRET_KEY from the environment, else null. */
export function currentKeyring(): SecretKeyring | null {
  if (!slot[SLOT] && process.env[SECRET_KEY_VAR]) slot[SLOT] = parseSecretKey(process.env[SECRET_KEY_VAR]);
  return slot[SLOT] ?? null;
}

function keyring(): SecretKeyring {
  const k = currentKeyring();
  if (!k) throw new SecretKeyError(`is not set: it is required to store and read secrets (${RULE})`);
  return k;
}

/** True for a value written by `encryptSecret`; anything else is legacy plaintext. */
export const isEncrypted = (stored: string) => stored.startsWith(`${VERSION}:`);

/** The key id a stored value was encrypted under, or null for plaintext. */
export const keyIdOf = (stored: string) => (isEncrypted(stored) ? stored.split(":", 3)[1]! : null);

/** `vgl1:<kid>:<base64url iv|ciphertext|tag>`; `context` (table.column) is bound in, so a value cannot move columns. */
export function encryptSecret(plain: string, context: string): string {
  const k = keyring();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", k.keys.get(k.primary)!, iv);
  cipher.setAAD(Buffer.from(`${VERSION}:${k.primary}:${context}`));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${VERSION}:${k.primary}:${Buffer.concat([iv, ct, cipher.getAuthTag()]).toString("base64url")}`;
}

/** The plaintext of an `encryptSecret` value; throws SecretKeyError when no key given can read it. */
export function decryptSecret(stored: string, context: string): string {
  const [, kid, body] = stored.split(":", 3);
  const key = kid ? keyring().keys.get(kid) : undefined;
  if (!key) throw new SecretKeyError(`has no key "${kid}" to read a stored secret of ${context}`);
  const raw = Buffer.from(body ?? "", "base64url");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`${VERSION}:${kid}:${context}`));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretKeyError(`key "${kid}" cannot read a stored secret of ${context} (wrong key, or the value was altered)`);
  }
}

/** Reads a stored column value: encrypted or legacy plaintext JSON. */
export const readSecretJson = (stored: string, context: string): unknown =>
  JSON.parse(isEncrypted(stored) ? decryptSecret(stored, context) : stored);

/** Session tokens are stored as this hash: a database read yields no usable cookie. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
