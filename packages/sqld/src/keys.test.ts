import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@vigil/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KEY_FILES, ensureDbKeys, mintDbToken, type RunningSqld, sqldBinary, startSqld, waitForSqld } from "./index";

const dir = mkdtempSync(join(tmpdir(), "vigil-db-keys-"));
let sqld: RunningSqld;
let token: string;
beforeAll(async () => {
  const keys = ensureDbKeys(join(dir, "keys"));
  token = keys.token;
  sqld = await startSqld({ dbPath: join(dir, "db.sqld"), httpPort: await freePort(), authKeyFile: keys.publicKeyFile });
});
afterAll(async () => {
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The operator's endpoint: `POST {db_url}/ {"statements": [...]}`. */
const post = (statements: string[], bearer?: string) =>
  fetch(`${sqld.url}/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify({ statements }),
  });

describe("the database with its keys", () => {
  it("refuses a request without a token", async () => {
    const res = await post(["SELECT 1"]);
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/authorization header/i);
  });

  it("refuses a token signed by another key", async () => {
    const other = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const res = await post(["SELECT 1"], mintDbToken(other));
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/JWT is invalid/);
  });

  it("runs reads and writes with the services' token, and answers /health without one", async () => {
    const res = await post(["CREATE TABLE t (x)", "INSERT INTO t VALUES (42)", "SELECT x FROM t"], token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { rows: unknown[][] } }[];
    expect(body[2]!.results.rows).toEqual([[42]]);
    expect((await fetch(`${sqld.url}/health`)).status).toBe(200);
  });
});

describe("the replication (gRPC) port", () => {
  // Why `pnpm start` opens no gRPC port and compose never publishes 5001 beyond loopback: sqld checks the
  // JWT on its HTTP interface only, so a replica that reaches the primary's gRPC port reads and writes all.
  it("lets a replica without any token read the primary and write to it", async () => {
    const keys = ensureDbKeys(join(dir, "replication-keys"));
    const grpcPort = await freePort();
    const primary = await startSqld({
      dbPath: join(dir, "primary.sqld"),
      httpPort: await freePort(),
      grpcPort,
      authKeyFile: keys.publicKeyFile,
    });
    const replicaPort = await freePort();
    const replica = spawn(
      sqldBinary(),
      [
        "--db-path",
        join(dir, "replica.sqld"),
        "--http-listen-addr",
        `127.0.0.1:${replicaPort}`,
        "--primary-grpc-url",
        `http://127.0.0.1:${grpcPort}`,
        "--no-welcome",
      ],
      { stdio: "ignore" },
    );
    try {
      await waitForSqld(`http://127.0.0.1:${replicaPort}`, 20_000, replica);
      const viaReplica = (statements: string[]) =>
        fetch(`http://127.0.0.1:${replicaPort}/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ statements }),
        });
      expect((await viaReplica(["CREATE TABLE planted (x)"])).status).toBe(200);
      const onPrimary = await fetch(`${primary.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${keys.token}` },
        body: JSON.stringify({ statements: ["SELECT name FROM sqlite_master WHERE name = 'planted'"] }),
      });
      expect(((await onPrimary.json()) as { results: { rows: unknown[][] } }[])[0]!.results.rows).toEqual([["planted"]]);
    } finally {
      replica.kill("SIGKILL");
      await primary.stop();
    }
  });
});

describe("ensureDbKeys", () => {
  it("keeps the private key and the token owner-only, and the public key readable by sqld's own user", () => {
    const keys = ensureDbKeys(join(dir, "modes"));
    expect(statSync(keys.privateKeyFile).mode & 0o777).toBe(0o600);
    expect(statSync(keys.tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(keys.publicKeyFile).mode & 0o777).toBe(0o644);
    expect([keys.publicKeyFile, keys.privateKeyFile, keys.tokenFile].map((f) => f.slice(f.lastIndexOf("/") + 1))).toEqual([
      DB_KEY_FILES.publicKey,
      DB_KEY_FILES.privateKey,
      DB_KEY_FILES.token,
    ]);
    expect(readFileSync(keys.publicKeyFile, "utf8")).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it("keeps existing keys on a second run and tightens loosened modes again", () => {
    const first = ensureDbKeys(join(dir, "again"));
    const pem = readFileSync(first.privateKeyFile, "utf8");
    chmodSync(first.tokenFile, 0o644);
    const second = ensureDbKeys(join(dir, "again"));
    expect(readFileSync(second.privateKeyFile, "utf8")).toBe(pem);
    expect(second.token).toBe(first.token);
    expect(statSync(second.tokenFile).mode & 0o777).toBe(0o600);
  });

  it("signs EdDSA tokens with the claims given and no expiry", () => {
    const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const [header, claims] = mintDbToken(pem)
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()));
    expect(header).toEqual({ alg: "EdDSA", typ: "JWT" });
    expect(claims).toMatchObject({ a: "rw" });
    expect(claims.exp).toBeUndefined();
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => mintDbToken(rsa)).toThrow(/Ed25519/);
  });
});
