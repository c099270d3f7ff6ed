// sqld's JWT auth: an Ed25519 key pair, sqld reads the public key, every client sends a token signed with
// the private one. The token is the services' credential: it does not expire; rotation is new keys + restart.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file names in a keys directory (compose mounts it at /keys; `pnpm start` uses .data/). */
export const DB_KEY_FILES = {
  /**
   * What sqld reads (`--auth-jwt-key-file`, `SQLD_AUTH_JWT_KEY_FILE`): the SPKI PEM public key. Readable by
   * all (0644): it is public, and sqld's image runs as its own user.
   */
  publicKey: "db-jwt.pub",
  /** The PKCS#8 PEM private key that signs tokens; owner-only. */
  privateKey: "db-jwt.key",
  /** The JWT the services send (`DATABASE_AUTH_TOKEN_FILE`); owner-only. */
  token: "db-token",
} as const;

export interface DbKeys {
  publicKeyFile: string;
  privateKeyFile: string;
  tokenFile: string;
  token: string;
}

/** The claims of the services' token: read and write on the instance's one database. */
export const SERVICE_CLAIMS = { a: "rw" } as const;

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** A JWT sqld accepts when it holds the matching public key (EdDSA, no expiry unless `claims.exp`). */
export function mintDbToken(privateKeyPem: string, claims: Record<string, unknown> = SERVICE_CLAIMS): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error("the database signing key must be an Ed25519 key");
  const data = `${b64url({ alg: "EdDSA", typ: "JWT" })}.${b64url({ iat: Math.floor(Date.now() / 1000), ...claims })}`;
  return `${data}.${sign(null, Buffer.from(data), key).toString("base64url")}`;
}

/**
 * Makes the key pair and the services' token in `dir` unless they exist; the private key and the token stay
 * owner-only (0600). A missing public key or token is derived again from the private key.
 */
export function ensureDbKeys(dir: string): DbKeys {
  mkdirSync(dir, { recursive: true });
  const publicKeyFile = join(dir, DB_KEY_FILES.publicKey);
  const privateKeyFile = join(dir, DB_KEY_FILES.privateKey);
  const tokenFile = join(dir, DB_KEY_FILES.token);
  if (!existsSync(privateKeyFile)) {
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileSync(privateKeyFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    // A new pair: a public key or token left from an older one would not match it.
    for (const file of [publicKeyFile, tokenFile]) rmSync(file, { force: true });
  }
  const privatePem = readFileSync(privateKeyFile, "utf8");
  if (!existsSync(publicKeyFile)) writeFileSync(publicKeyFile, createPublicKey(privatePem).export({ type: "spki", format: "pem" }));
  if (!existsSync(tokenFile)) writeFileSync(tokenFile, mintDbToken(privatePem), { mode: 0o600 });
  for (const file of [privateKeyFile, tokenFile]) chmodSync(file, 0o600);
  chmodSync(publicKeyFile, 0o644);
  return { publicKeyFile, privateKeyFile, tokenFile, token: readFileSync(tokenFile, "utf8").trim() };
}
