// A loopback RDAP server answering registry JSON (RFC 9083 domain objects) from a table the test edits.
import { listenHttp, type Running } from "./servers";

export interface TestRdapServer extends Running {
  /** domain → expiry (epoch ms); a domain absent answers 404 like a registry. */
  expiries: Map<string, number>;
  /** Paths asked, in order. */
  hits: string[];
  /** The base URL to give a monitor's rdapUrl. */
  base: string;
}

export const rdapDomain = (domain: string, expiresAt: number) => ({
  objectClassName: "domain",
  ldhName: domain.toUpperCase(),
  rdapConformance: ["rdap_level_0"],
  status: ["client transfer prohibited"],
  events: [
    { eventAction: "registration", eventDate: "2001-05-03T04:00:00Z" },
    { eventAction: "expiration", eventDate: new Date(expiresAt).toISOString() },
    { eventAction: "last update of RDAP database", eventDate: new Date().toISOString() },
  ],
});

export async function startRdapServer(): Promise<TestRdapServer> {
  const expiries = new Map<string, number>();
  const hits: string[] = [];
  const running = await listenHttp((req, res) => {
    hits.push(req.url ?? "");
    const m = /^\/rdap\/domain\/([^/?]+)$/.exec(req.url ?? "");
    const domain = m ? decodeURIComponent(m[1]!) : "";
    const expiresAt = expiries.get(domain);
    if (expiresAt === undefined) {
      res.writeHead(404, { "content-type": "application/rdap+json" }).end(JSON.stringify({ errorCode: 404, title: "Not Found" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/rdap+json" }).end(JSON.stringify(rdapDomain(domain, expiresAt)));
  });
  return Object.assign(running, { expiries, hits, base: `${running.origin}/rdap/` });
}
