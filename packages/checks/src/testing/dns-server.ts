// A real DNS server on loopback (dns2), answering from a zone the test edits, over UDP and TCP on one port.
import dns2 from "dns2";

const { Packet } = dns2;

export interface ZoneRecord {
  type: keyof typeof Packet.TYPE;
  [field: string]: unknown;
}

export interface TestDnsServer {
  port: number;
  /** name → records; a name absent from the zone answers NXDOMAIN. */
  zone: Map<string, ZoneRecord[]>;
  /** Names whose UDP answer is truncated (TC set, no records), so the client must ask again over TCP. */
  truncated: Set<string>;
  /** Queries seen, as "udp|tcp name TYPE". */
  queries: string[];
  /** Stop answering (queries time out) while true. */
  silent: boolean;
  close: () => Promise<void>;
}

export async function startDnsServer(host = "127.0.0.1"): Promise<TestDnsServer> {
  const state = { zone: new Map<string, ZoneRecord[]>(), truncated: new Set<string>(), queries: [] as string[], silent: false };
  const handle =
    (transport: "udp" | "tcp"): dns2.DnsHandler =>
    (request, send) => {
      if (state.silent) return;
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question!.name.toLowerCase();
      const typeName = Packet.typeName(question!.type);
      state.queries.push(`${transport} ${name} ${typeName}`);
      const records = state.zone.get(name);
      if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (transport === "udp" && state.truncated.has(name)) response.header.tc = 1;
      else
        for (const r of records.filter((x) => Packet.TYPE[x.type] === question!.type))
          response.answers.push({ ...r, name: question!.name, type: Packet.TYPE[r.type], class: Packet.CLASS.IN, ttl: 60 } as never);
      send(response);
    };
  // One port for both: the OS picks a free UDP port, and TCP takes the same number (another try if it is taken).
  for (let attempt = 1; ; attempt++) {
    const udp = dns2.createUDPServer(handle("udp"));
    const tcp = dns2.createTCPServer(handle("tcp"));
    await udp.listen(0, host);
    const port = (udp.address() as { port: number }).port;
    const listening = await new Promise<boolean>((resolve) => {
      tcp.once("error", () => resolve(false));
      tcp.listen(port, host, () => resolve(true));
    });
    if (!listening) {
      await new Promise((r) => udp.close(() => r(undefined)));
      if (attempt < 10) continue;
      throw new Error("no port free for both UDP and TCP");
    }
    return Object.assign(state, {
      port,
      close: async () => {
        await Promise.all([new Promise((r) => udp.close(() => r(undefined))), new Promise((r) => tcp.close(() => r(undefined)))]);
      },
    });
  }
}
