import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, runHttpCheck } from "../../index";
import { listenHttp, refusedPort } from "../../testing/servers";
import { HttpCheck } from "./index";

type Input = Omit<Partial<HttpCheck>, "kind" | "assertions"> & { url: string; assertions?: unknown[] };
const http = (input: Input) => HttpCheck.parse({ kind: "http", retry: 0, ...input });

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
const serve = async (...args: Parameters<typeof listenHttp>) => {
  const s = await listenHttp(...args);
  open.push(s);
  return s;
};

describe("HTTP checks", () => {
  it("a 200 reply succeeds with real phase timings", async () => {
    const s = await serve((_req, res) => res.end("ok"));
    const result = await runHttpCheck(http({ url: `${s.origin}/health` }));
    expect(result).toMatchObject({ status: "success", statusCode: 200, attempts: 1 });
    const t = result.timings!;
    expect(t.dns).toBeUndefined();
    expect(t.connect).toBeGreaterThan(0);
    expect(t.firstByte).toBeGreaterThan(0);
    expect(t.download).toBeGreaterThanOrEqual(0);
    expect(t.connect! + t.firstByte! + t.download!).toBeLessThanOrEqual(t.total + 0.01);
    expect(result.latencyMs).toBe(t.total);
  });

  it("the firstByte timing grows with the server's think time", async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end("late"), 120));
    const result = await runHttpCheck(http({ url: s.origin }));
    expect(result.timings!.firstByte).toBeGreaterThanOrEqual(115);
    expect(result.timings!.connect).toBeLessThan(50);
  });

  it("a hostname target reports its DNS time", async () => {
    const s = await serve((_req, res) => res.end("ok"));
    const result = await runHttpCheck(http({ url: `http://localhost:${s.port}/` }));
    expect(result.status).toBe("success");
    expect(result.timings!.dns).toBeGreaterThan(0);
  });

  it("each check opens a connection of its own", async () => {
    const ports = new Set<number>();
    const s = await serve((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end("ok");
    });
    for (let i = 0; i < 3; i++) await runHttpCheck(http({ url: s.origin }));
    expect(ports.size).toBe(3);
  });

  it("a server on IPv6 ::1 is checked", async () => {
    const s = await serve((_req, res) => res.end("ok"), "::1");
    const result = await runHttpCheck(http({ url: `${s.origin}/` }));
    expect(result).toMatchObject({ status: "success", statusCode: 200 });
  });

  it("a 503 without a statusCode assertion fails as 'expected 2xx'", async () => {
    const s = await serve((_req, res) => {
      res.statusCode = 503;
      res.end("down");
    });
    const result = await runHttpCheck(http({ url: s.origin }));
    expect(result).toMatchObject({ status: "error", statusCode: 503, errorMessage: "statusCode: expected 2xx, got 503" });
  });

  it("a statusCode assertion replaces the 2xx rule and names both codes when it fails", async () => {
    const s = await serve((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const failing = await runHttpCheck(http({ url: s.origin, assertions: [{ kind: "statusCode", compare: "eq", target: 200 }] }));
    expect(failing.errorMessage).toBe("statusCode: expected eq 200, got 503");
    const passing = await runHttpCheck(http({ url: s.origin, assertions: [{ kind: "statusCode", compare: "eq", target: 503 }] }));
    expect(passing.status).toBe("success");
    expect(passing.assertions).toEqual([{ kind: "statusCode", ok: true, message: "statusCode: eq 503 (got 503)" }]);
  });

  it("a 301 is followed to the final page", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/old") {
        res.writeHead(301, { location: "/new" });
        res.end();
      } else res.end(`at ${req.url}`);
    });
    const result = await runHttpCheck(
      http({ url: `${s.origin}/old`, assertions: [{ kind: "textBody", compare: "eq", target: "at /new" }] }),
    );
    expect(result).toMatchObject({ status: "success", statusCode: 200 });
  });

  it("with followRedirects off, the 301 itself is the answer", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(301, { location: "/elsewhere" });
      res.end();
    });
    const plain = await runHttpCheck(http({ url: s.origin, followRedirects: false }));
    expect(plain).toMatchObject({ status: "error", statusCode: 301, errorMessage: "statusCode: expected 2xx, got 301" });
    const asserted = await runHttpCheck(
      http({
        url: s.origin,
        followRedirects: false,
        assertions: [
          { kind: "statusCode", compare: "eq", target: 301 },
          { kind: "header", key: "Location", compare: "eq", target: "/elsewhere" },
        ],
      }),
    );
    expect(asserted.status).toBe("success");
  });

  it("a 303 after a POST continues as a GET without the body; a 307 keeps method and body", async () => {
    const hits: string[] = [];
    const s = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        hits.push(`${req.method} ${req.url} ${body}`.trim());
        if (req.url === "/see-other") res.writeHead(303, { location: "/temp" }).end();
        else if (req.url === "/temp") res.writeHead(307, { location: "/final" }).end();
        else res.end("done");
      });
    });
    const result = await runHttpCheck(http({ url: `${s.origin}/see-other`, method: "POST", body: "x=1" }));
    expect(result.status).toBe("success");
    expect(hits).toEqual(["POST /see-other x=1", "GET /temp", "GET /final"]);
  });

  it("a redirect loop is an error naming the loop", async () => {
    const s = await serve((req, res) => {
      res.writeHead(302, { location: req.url === "/a" ? "/b" : "/a" });
      res.end();
    });
    const result = await runHttpCheck(http({ url: `${s.origin}/a` }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`redirect loop: ${s.origin}/a → ${s.origin}/b → ${s.origin}/a`);
  });

  it("a redirect chain longer than 10 hops stops with 'too many redirects'", async () => {
    let hits = 0;
    const s = await serve((req, res) => {
      hits++;
      const n = Number(req.url!.slice(1));
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    });
    const result = await runHttpCheck(http({ url: `${s.origin}/0` }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toMatch(/^too many redirects: stopped after 10 hops/);
    expect(hits).toBe(11); // the first request and 10 redirects followed
  });

  it("a slow reply past degradedAfter is degraded, not an error", async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end("ok"), 150));
    const result = await runHttpCheck(http({ url: s.origin, degradedAfterMs: 50 }));
    expect(result.status).toBe("degraded");
    expect(result.latencyMs).toBeGreaterThanOrEqual(150);
    expect(result.errorMessage).toBeUndefined();
  });

  it("a server that never answers times out after the monitor's timeout, naming the phase", async () => {
    const s = await serve(() => {});
    const started = performance.now();
    const result = await runHttpCheck(http({ url: `${s.origin}/hang`, timeoutMs: 300 }));
    const took = performance.now() - started;
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`request to ${s.origin}/hang timed out after 300 ms waiting for the response`);
    expect(took).toBeGreaterThanOrEqual(295);
    expect(took).toBeLessThan(800);
  });

  it("a body that stalls mid-way times out while reading the body", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    });
    const result = await runHttpCheck(http({ url: s.origin, timeoutMs: 300 }));
    expect(result.errorMessage).toBe(`request to ${s.origin}/ timed out after 300 ms reading the body`);
  });

  it("a refused port is an error that says connection refused", async () => {
    const port = await refusedPort();
    const result = await runHttpCheck(http({ url: `http://127.0.0.1:${port}/` }));
    expect(result).toMatchObject({ status: "error", errorMessage: `connection refused by 127.0.0.1:${port}` });
    expect(result.statusCode).toBeUndefined();
  });

  it("a failing check's message hides the password and token of its URL", async () => {
    const port = await refusedPort();
    const refused = await runHttpCheck(http({ url: `https://user:secret@127.0.0.1:${port}/?token=abc` }));
    expect(refused.errorMessage).toBe(`connection refused by 127.0.0.1:${port}`);
    const hang = await serve(() => {});
    const origin = hang.origin.replace("http://", "http://user:secret@");
    const slow = await runHttpCheck(http({ url: `${origin}/hang?token=abc&page=2`, timeoutMs: 200 }));
    expect(slow.errorMessage).toBe(
      `request to http://***@127.0.0.1:${hang.port}/hang?token=***&page=2 timed out after 200 ms waiting for the response`,
    );
    const loop = await serve((req, res) => {
      res.writeHead(302, { location: req.url!.startsWith("/a") ? "/b?api_key=k9" : "/a?sig=s9" });
      res.end();
    });
    const looped = await runHttpCheck(http({ url: `${loop.origin}/a?sig=s9` }));
    expect(looped.errorMessage).toBe(`redirect loop: ${loop.origin}/a?sig=*** → ${loop.origin}/b?api_key=*** → ${loop.origin}/a?sig=***`);
    for (const r of [refused, slow, looped]) expect(r.errorMessage).not.toMatch(/secret|abc|k9|s9/);
  });

  it("an unknown host is an error naming the DNS failure", async () => {
    const result = await runHttpCheck(http({ url: "http://foo.invalid/" }));
    expect(result.errorMessage).toMatch(/^DNS lookup failed for foo\.invalid: /);
  });

  it("a server that hangs up without answering is an error", async () => {
    const s = await serve((req) => req.socket.destroy());
    const result = await runHttpCheck(http({ url: s.origin }));
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe(`connection to 127.0.0.1:${s.port} closed before any response`);
  });

  it("a body over 1 MiB is read only up to 1 MiB and marked truncated", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    let written = 0;
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // 64 MiB if anyone reads it all; the check must stop long before.
      const pump = () => {
        while (written < 64 * MAX_BODY_BYTES) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("error", () => {});
      pump();
    });
    const result = await runHttpCheck(
      http({
        url: s.origin,
        timeoutMs: 5000,
        assertions: [
          { kind: "textBody", compare: "contains", target: "aaaa" },
          { kind: "textBody", compare: "not_contains", target: "b" },
        ],
      }),
    );
    expect(result.status).toBe("success");
    expect(result.bodyTruncated).toBe(true);
    expect(written).toBeLessThan(16 * MAX_BODY_BYTES);
  });

  it("a non-UTF-8 body does not crash the check and is decoded lossily", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x6f, 0x6b, 0x80]));
    });
    const result = await runHttpCheck(http({ url: s.origin, assertions: [{ kind: "textBody", compare: "contains", target: "(ok" }] }));
    expect(result.status).toBe("success");
  });

  it("a body in a declared charset is decoded in that charset", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
    });
    const result = await runHttpCheck(http({ url: s.origin, assertions: [{ kind: "textBody", compare: "eq", target: "café" }] }));
    expect(result.status).toBe("success");
  });

  it("jsonBody assertions read values by JSONPath", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "ok", items: [{ id: 7 }, { id: 9 }], "a-b": true, count: 3 }));
    });
    const result = await runHttpCheck(
      http({
        url: s.origin,
        assertions: [
          { kind: "jsonBody", path: "$.status", compare: "eq", target: "ok" },
          { kind: "jsonBody", path: "$.items[0].id", compare: "eq", target: 7 },
          { kind: "jsonBody", path: '$["a-b"]', compare: "eq", target: true },
          { kind: "jsonBody", path: "$.items[*].id", compare: "contains", target: 9 },
          { kind: "jsonBody", path: "$.count", compare: "gt", target: 2 },
          { kind: "header", key: "Content-Type", compare: "contains", target: "json" },
          { kind: "latency", compare: "lt", target: 5000 },
        ],
      }),
    );
    expect(result.errorMessage).toBeUndefined();
    expect(result.status).toBe("success");
    expect(result.assertions).toHaveLength(8); // the implicit 2xx rule plus seven
  });

  it("a failing jsonBody assertion names the path, the expectation and the value", async () => {
    const s = await serve((_req, res) => res.end(JSON.stringify({ status: "down" })));
    const result = await runHttpCheck(
      http({ url: s.origin, assertions: [{ kind: "jsonBody", path: "$.status", compare: "eq", target: "ok" }] }),
    );
    expect(result.errorMessage).toBe('jsonBody $.status: expected eq "ok", got "down"');
  });

  it("bad JSON under a jsonBody assertion is a failed assertion, not a crash", async () => {
    const s = await serve((_req, res) => res.end("<html>oops</html>"));
    const result = await runHttpCheck(
      http({ url: s.origin, assertions: [{ kind: "jsonBody", path: "$.status", compare: "eq", target: "ok" }] }),
    );
    expect(result.status).toBe("error");
    expect(result.statusCode).toBe(200);
    expect(result.errorMessage).toMatch(/^jsonBody \$\.status: body is not valid JSON \(.+\), starts with "<html>oops<\/html>"$/);
  });

  it("every failed assertion is listed in errorMessage, joined by '; '", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(500, { "content-type": "text/html" });
      res.end("error page");
    });
    const result = await runHttpCheck(
      http({
        url: s.origin,
        assertions: [
          { kind: "statusCode", compare: "eq", target: 200 },
          { kind: "header", key: "content-type", compare: "contains", target: "json" },
          { kind: "textBody", compare: "contains", target: "healthy" },
          { kind: "header", key: "x-missing", compare: "not_empty" },
        ],
      }),
    );
    expect(result.errorMessage).toBe(
      [
        "statusCode: expected eq 200, got 500",
        'header content-type: expected contains "json", got "text/html"',
        'textBody: expected contains "healthy", got "error page"',
        "header x-missing: expected not_empty, got no such header",
      ].join("; "),
    );
    expect(result.assertions!.map((a) => a.ok)).toEqual([false, false, false, false]);
  });

  it("method, headers and body are sent as configured", async () => {
    let seen: { method?: string; header?: string; body?: string } = {};
    const s = await serve((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen = { method: req.method, header: req.headers["x-token"] as string, body };
        res.end("ok");
      });
    });
    const result = await runHttpCheck(http({ url: s.origin, method: "PUT", headers: { "X-Token": "t1" }, body: "payload" }));
    expect(result.status).toBe("success");
    expect(seen).toEqual({ method: "PUT", header: "t1", body: "payload" });
  });

  it("a request undici cannot send is an error result, not an exception", async () => {
    const s = await serve((_req, res) => res.end("ok"));
    const badHeader = await runHttpCheck(http({ url: s.origin, headers: { "x-bad": "line\r\nbreak" } }));
    expect(badHeader.status).toBe("error");
    expect(badHeader.errorMessage).toMatch(/^invalid request: .*header/);
    const ftp = await runHttpCheck(http({ url: "ftp://127.0.0.1/file" }));
    expect(ftp).toMatchObject({ status: "error", errorMessage: "invalid request: unsupported URL scheme ftp: (use http or https)" });
  });

  const hasOpenssl = (() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasOpenssl)("an HTTPS target with an untrusted certificate fails naming the TLS problem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-tls-"));
    try {
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"].concat([
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ]),
        { stdio: "ignore" },
      );
      const server = createHttpsServer(
        { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
        (_req, res) => res.end("ok"),
      );
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      open.push({
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
      const port = (server.address() as { port: number }).port;
      const result = await runHttpCheck(http({ url: `https://localhost:${port}/` }));
      expect(result.status).toBe("error");
      expect(result.errorMessage).toBe(
        `TLS handshake with localhost:${port} failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      expect(result.timings?.connect).toBeGreaterThan(0); // the TCP connect completed; the handshake did not
      expect(result.timings?.tls).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
