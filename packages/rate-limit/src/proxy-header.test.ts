import { createServer, type Server, connect as tcpConnect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { clientKey } from "./client-address";
import { parseProxyHeader, proxyHeader, readProxyHeader } from "./proxy-header";

const to = { address: "127.0.0.1", port: 3003 };

describe("the launcher's client header", () => {
  for (const address of ["127.0.0.2", "2001:db8:1:2::7", "::1", "fe80::1:2:3:4", "2001:db8:0:1:0:0:0:5"])
    it(`the app reads back the client ${address} the launcher saw`, () => {
      const dest = address.includes(":") ? { address: "::1", port: 3003 } : to;
      const header = proxyHeader({ address, port: 51234 }, dest, "s3cret");
      const canonical = address === "2001:db8:0:1:0:0:0:5" ? "2001:db8:0:1::5" : address;
      expect(parseProxyHeader(header, "s3cret")).toEqual({ address: canonical, length: header.length });
    });

  it("an IPv4 client seen on a dual-stack socket is named as IPv4", () => {
    const header = proxyHeader({ address: "::ffff:127.0.0.2", port: 1 }, { address: "::ffff:127.0.0.1", port: 2 }, "s");
    expect(parseProxyHeader(header, "s")).toMatchObject({ address: "127.0.0.2" });
  });

  it("a header arriving in pieces waits for the rest; a wrong secret or plain HTTP is refused", () => {
    const header = proxyHeader({ address: "127.0.0.2", port: 1 }, to, "s3cret");
    for (const cut of [1, 12, 15, header.length - 1]) expect(parseProxyHeader(header.subarray(0, cut), "s3cret")).toBeUndefined();
    expect(parseProxyHeader(header, "other")).toEqual(new Error("PROXY header without the launcher's secret"));
    expect(parseProxyHeader(Buffer.from("GET / HTTP/1.1\r\n"), "s3cret")).toEqual(new Error("no PROXY v2 header"));
  });

  let server: Server | undefined;
  afterAll(() => server?.close());
  it("what follows the header on the connection is left for HTTP, byte for byte", async () => {
    const got = new Promise<[string, string]>((resolve) => {
      server = createServer((socket) => {
        void readProxyHeader(socket, "s3cret").then((address) => {
          let rest = "";
          socket.on("data", (d) => (rest += d)).on("end", () => resolve([address, rest]));
        });
      }).listen(0, "127.0.0.1", () => {
        const port = (server!.address() as { port: number }).port;
        const c = tcpConnect({ port, host: "127.0.0.1" }, () => {
          const header = proxyHeader({ address: "127.0.0.7", port: 9 }, to, "s3cret");
          // Split mid-header, with the request's first bytes in the header's last piece.
          c.write(header.subarray(0, 10));
          setTimeout(() => c.end(Buffer.concat([header.subarray(10), Buffer.from("GET / HTTP/1.1\r\n\r\n")])), 50);
        });
      });
    });
    expect(await got).toEqual(["127.0.0.7", "GET / HTTP/1.1\r\n\r\n"]);
  });
});

describe("per-client limits", () => {
  it("IPv6 clients in one /64 count as one client, another /64 apart; IPv4 clients each count", () => {
    expect(clientKey("2001:db8:1:2::7")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::7")).toBe("2001:db8:1:3::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
  });
});
