// Rows of `pnpm bench checks` for the TLS, DNS and domain kinds: a whole runCheck against the raw operation
// it wraps (tls.connect, a Resolver query, a fetch of the RDAP JSON), alternating, on loopback servers.
import { Resolver } from "node:dns/promises";
import { request } from "node:http";
import { connect } from "node:tls";
import { DnsCheck, DomainCheck, TlsCheck } from "@vigil/api-contract";
import { runCheck } from "@vigil/checks";
import { listenTls, makeCertificate, startDnsServer, startRdapServer } from "@vigil/checks/testing";
import { type BenchRow, percentile, sortNumbers } from "./lib";

const SAMPLES = 300;
const WARMUP = 30;

async function pairedP50(ours: () => Promise<{ status: string }>, raw: () => Promise<unknown>) {
  const a: number[] = [];
  const b: number[] = [];
  let failures = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    let t = performance.now();
    const r = await ours();
    const ourMs = performance.now() - t;
    t = performance.now();
    await raw();
    const rawMs = performance.now() - t;
    if (i < WARMUP) continue;
    a.push(ourMs);
    b.push(rawMs);
    if (r.status !== "success") failures++;
  }
  return { ours: percentile(sortNumbers(a), 50), raw: percentile(sortNumbers(b), 50), failures };
}

export async function checkKindRows(): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const cert = await makeCertificate(60);
  const [tls, dns, rdap] = await Promise.all([listenTls(cert), startDnsServer(), startRdapServer()]);
  try {
    dns.zone.set("api.example.test", [{ type: "A", address: "192.0.2.10" }]);
    // 200 days left under a 400-day warning: degraded, so the answer is fetched every time rather than reused for 6 h.
    rdap.expiries.set("bench.test", Date.now() + 200 * 86_400_000);
    const tlsDef = TlsCheck.parse({
      kind: "tls",
      host: "127.0.0.1",
      port: tls.port,
      retry: 0,
      assertions: [{ kind: "certificate", property: "valid", target: false }],
    });
    const dnsDef = DnsCheck.parse({ kind: "dns", name: "api.example.test", resolver: { host: "127.0.0.1", port: dns.port }, retry: 0 });
    const domainDef = DomainCheck.parse({
      kind: "domain",
      domain: "bench.test",
      rdapUrl: rdap.base,
      alertDays: 0,
      warnDays: 400,
      retry: 0,
    });
    const rawTls = () =>
      new Promise<void>((resolve, reject) => {
        const s = connect({ host: "127.0.0.1", port: tls.port, rejectUnauthorized: false }, () => {
          s.getPeerCertificate(false);
          s.destroy();
          resolve();
        });
        s.once("error", reject);
      });
    const resolver = new Resolver({ tries: 1 });
    resolver.setServers([`127.0.0.1:${dns.port}`]);
    const rawDns = () => resolver.resolve4("api.example.test");
    // A fresh connection each time, as the check opens one.
    const rawRdap = () =>
      new Promise<unknown>((resolve, reject) => {
        const req = request(`${rdap.base}domain/bench.test`, { agent: false, headers: { accept: "application/rdap+json" } }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (body += d));
          res.once("end", () => resolve(JSON.parse(body)));
          res.once("error", reject);
        });
        req.once("error", reject);
        req.end();
      });

    const t = await pairedP50(() => runCheck(tlsDef), rawTls);
    const d = await pairedP50(() => runCheck(dnsDef), rawDns);
    const r = await pairedP50(async () => {
      const res = await runCheck(domainDef);
      return { status: res.status === "degraded" ? "success" : res.status };
    }, rawRdap);
    // A TLS handshake costs milliseconds of crypto on its own: its goal is relative.
    const row = (metric: string, x: { ours: number; raw: number }, baselineName: string, relative = false): BenchRow => ({
      metric,
      unit: "ms",
      value: x.ours,
      baseline: x.raw,
      baselineName,
      ...(relative ? { goal: "< 5 % added at p50", met: x.ours < x.raw * 1.05 } : { goal: "< 1 ms added at p50", met: x.ours - x.raw < 1 }),
    });
    return {
      rows: [
        row("TLS check wall time per check, p50", t, "raw tls.connect + peer certificate", true),
        row("DNS check wall time per check, p50", d, "raw Resolver.resolve4 (same resolver)"),
        row("domain check wall time per check (RDAP fetched), p50", r, "raw http.request of the RDAP JSON (agent: false)"),
      ],
      notes: [
        `TLS, DNS and domain: ${SAMPLES} samples after ${WARMUP} warm-up, ours and the raw operation alternating; their loopback servers share the checks' event loop. Non-success results: TLS ${t.failures}, DNS ${d.failures}, domain ${r.failures}.`,
      ],
    };
  } finally {
    await Promise.all([tls.close(), dns.close(), rdap.close()]);
  }
}
