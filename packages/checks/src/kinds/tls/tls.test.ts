import { EgressPolicy } from "@vigil/egress";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpCheck } from "../../contract";
import { runCheck } from "../../index";
import { listenHttps, listenStartTls, listenTls, makeCertificate, type TestCertificate } from "../../testing/certs";
import type { Running } from "../../testing/servers";
import { checkKinds } from "../index";
import { TlsCheck, TlsRequest } from "./index";

let soon: TestCertificate;
let later: TestCertificate;
beforeAll(async () => {
  [soon, later] = await Promise.all([makeCertificate(5), makeCertificate(60)]);
});

const open: Running[] = [];
const use = async (s: Promise<Running>) => {
  const running = await s;
  open.push(running);
  return running;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The test's certificates are self-signed: a `valid` assertion that only degrades lets the check go on to judge the rest. */
const tolerateSelfSigned = { kind: "certificate", property: "valid", target: true, severity: "degraded" } as const;
const expiry = [
  { kind: "certificate", property: "expiresIn", compare: "gt", target: 21, severity: "degraded" },
  { kind: "certificate", property: "expiresIn", compare: "gt", target: 7 },
] as const;

const https = (port: number, assertions: unknown[]) =>
  HttpCheck.parse({ kind: "http", url: `https://127.0.0.1:${port}/`, retry: 0, timeoutMs: 3000, assertions });

describe("certificates on HTTPS checks", () => {
  it("an HTTPS result records the peer certificate: subject, names, issuer, expiry and whether it is trusted", async () => {
    let requests = 0;
    const server = await use(listenHttps(later, () => requests++));
    const result = await runCheck(https(server.port, [tolerateSelfSigned]));
    expect(result.certificate).toEqual({
      subject: "CN=localhost, O=Vigil Test CA",
      sans: ["localhost", "127.0.0.1"],
      issuer: "CN=localhost, O=Vigil Test CA",
      notAfter: Math.floor(later.notAfter.getTime() / 1000) * 1000,
      valid: false,
      validationError: "DEPTH_ZERO_SELF_SIGNED_CERT",
    });
    expect(result.status).toBe("degraded");
    expect(result.errorMessage).toBe("certificate valid: expected eq true, got false (DEPTH_ZERO_SELF_SIGNED_CERT)");
    expect(requests).toBe(1);
  });

  it("without a valid assertion an untrusted certificate fails the handshake and no request is sent", async () => {
    let requests = 0;
    const server = await use(listenHttps(later, () => requests++));
    const result = await runCheck(https(server.port, []));
    expect(requests).toBe(0);
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed: self[- ]signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/,
    );
  });

  it("degraded 21 days before expiry and an error at 7: a certificate 60 days out passes, 5 days out is an error", async () => {
    const fine = await use(listenHttps(later));
    const dying = await use(listenHttps(soon));
    const trusted = { kind: "certificate", property: "valid", target: false } as const; // the test's own self-signed cert
    const ok = await runCheck(https(fine.port, [trusted, ...expiry]));
    expect(ok.status).toBe("success");
    const bad = await runCheck(https(dying.port, [trusted, ...expiry]));
    expect(bad.status).toBe("error");
    expect(bad.errorMessage).toContain("certificate expiresIn: expected gt 7 days, got 5 days");
  });

  it("only the degrading assertion failing makes the check degraded, not an error", async () => {
    const server = await use(listenHttps(await makeCertificate(14)));
    const result = await runCheck(https(server.port, [{ kind: "certificate", property: "valid", target: false }, ...expiry]));
    expect(result.status).toBe("degraded");
    expect(result.errorMessage).toBe(
      `certificate expiresIn: expected gt 21 days, got 14 days (notAfter ${result.certificate!.notAfter && new Date(result.certificate!.notAfter).toISOString().slice(0, 10)})`,
    );
  });

  it("an issuer assertion compares the issuer's name", async () => {
    const server = await use(listenHttps(later));
    const pass = await runCheck(
      https(server.port, [
        { kind: "certificate", property: "valid", target: false },
        { kind: "certificate", property: "issuer", compare: "contains", target: "Vigil Test CA" },
      ]),
    );
    expect(pass.status).toBe("success");
    const fail = await runCheck(
      https(server.port, [
        { kind: "certificate", property: "valid", target: false },
        { kind: "certificate", property: "issuer", compare: "contains", target: "Let's Encrypt" },
      ]),
    );
    expect(fail.errorMessage).toBe(`certificate issuer: expected contains "Let's Encrypt", got "CN=localhost, O=Vigil Test CA"`);
  });

  it("a certificate assertion with the wrong comparison or target type names the rule", () => {
    const r = HttpCheck.safeParse({
      kind: "http",
      url: "https://x",
      assertions: [{ kind: "certificate", property: "expiresIn", compare: "contains", target: "x" }],
    });
    expect(r.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "assertions.0.compare: must be one of gt, gte, lt, lte for expiresIn",
      "assertions.0.target: must be a number of days for expiresIn",
    ]);
  });
});

const tlsCheck = (port: number, input: Record<string, unknown> = {}) =>
  TlsCheck.parse({ kind: "tls", host: "127.0.0.1", port, retry: 0, timeoutMs: 3000, ...input });

describe("TLS checks", () => {
  it("a TLS monitor records the certificate and fails an untrusted chain with the reason, unless told what to expect", async () => {
    const server = await use(listenTls(later));
    const strict = await runCheck(tlsCheck(server.port));
    expect(strict.status).toBe("error");
    expect(strict.errorMessage).toBe("TLS: certificate valid: expected eq true, got false (DEPTH_ZERO_SELF_SIGNED_CERT)");
    expect(strict.certificate?.subject).toBe("CN=localhost, O=Vigil Test CA");
    const told = await runCheck(
      tlsCheck(server.port, { assertions: [{ kind: "certificate", property: "valid", target: false }, ...expiry] }),
    );
    expect(told.status).toBe("success");
    expect(told.latencyMs).toBeGreaterThan(0);
    expect(told.timings?.tls).toBeGreaterThan(0);
  });

  it("a TLS monitor on a certificate 5 days from expiry is an error naming the days", async () => {
    const server = await use(listenTls(soon));
    const result = await runCheck(
      tlsCheck(server.port, { assertions: [{ kind: "certificate", property: "valid", target: false }, ...expiry] }),
    );
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(
      /^TLS: certificate expiresIn: expected gt 21 days, got 5 days .*; certificate expiresIn: expected gt 7 days, got 5 days/,
    );
  });

  it.each(["smtp", "imap", "postgres"] as const)(
    "STARTTLS over %s upgrades the plain connection and reads the certificate",
    async (protocol) => {
      const server = await use(listenStartTls(later, protocol));
      const result = await runCheck(
        tlsCheck(server.port, { starttls: protocol, assertions: [{ kind: "certificate", property: "valid", target: false }] }),
      );
      expect(result.errorMessage).toBeUndefined();
      expect(result.status).toBe("success");
      expect(result.certificate?.sans).toEqual(["localhost", "127.0.0.1"]);
    },
  );

  it("a STARTTLS server that never answers times out naming the STARTTLS phase", async () => {
    const server = await use(listenTls(later)); // speaks TLS only: waits for a ClientHello, never greets
    const result = await runCheck(tlsCheck(server.port, { starttls: "smtp", timeoutMs: 300 }));
    expect(result.errorMessage).toBe(`STARTTLS (smtp) with 127.0.0.1:${server.port} timed out after 300 ms`);
  });

  it("a TLS target at the instance's own address is refused before connecting", async () => {
    const server = await use(listenTls(later));
    const policy = await EgressPolicy.create({ instance: [{ name: "database", url: `http://127.0.0.1:${server.port}` }] });
    const result = await runCheck(tlsCheck(server.port), { egress: policy });
    expect(result.errorMessage).toBe(`target 127.0.0.1:${server.port} is this instance's database; refused`);
  });

  it("its OTLP attributes name the server and the certificate as the semantic conventions do", async () => {
    const server = await use(listenTls(later));
    const def = tlsCheck(server.port, { sni: "localhost", assertions: [{ kind: "certificate", property: "valid", target: false }] });
    const result = await runCheck(def);
    expect(checkKinds.tls.attributes(def, result)).toEqual({
      "server.address": "127.0.0.1",
      "server.port": server.port,
      "tls.client.server_name": "localhost",
      "tls.server.subject": "CN=localhost, O=Vigil Test CA",
      "tls.server.issuer": "CN=localhost, O=Vigil Test CA",
      "tls.server.not_after": new Date(result.certificate!.notAfter).toISOString(),
    });
  });

  it("bad fields are refused naming the field", () => {
    const issues = (input: unknown) => TlsRequest.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues({ host: "mail.example.com", port: 70000 })).toEqual(["port: must be 1-65535"]);
    expect(issues({ host: "mail.example.com", starttls: "ftp" })).toEqual(["starttls: must be one of smtp, imap, postgres"]);
    expect(TlsRequest.parse({ host: "mail.example.com" }).port).toBe(443);
  });
});
