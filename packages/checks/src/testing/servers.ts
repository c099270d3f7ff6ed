// Real loopback servers for the checks' tests: started on port 0, closed with every connection they hold.
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { connect, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { Worker } from "node:worker_threads";

export interface Running {
  host: string;
  port: number;
  /** `http://host:port` (IPv6 bracketed). */
  origin: string;
  close: () => Promise<void>;
}

function track(server: Server, host: string): Promise<Running> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port: 0 }, () => {
      const { port } = server.address() as { port: number };
      resolve({
        host,
        port,
        origin: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

export const listenTcp = (host = "127.0.0.1"): Promise<Running> =>
  track(
    createTcpServer((s) => s.end()),
    host,
  );

export const listenHttp = (handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>, host = "127.0.0.1"): Promise<Running> =>
  track(createHttpServer(handler), host);

/** A port nothing listens on: bound once to get a free number, then released. */
export async function refusedPort(): Promise<number> {
  const s = await listenTcp();
  await s.close();
  return s.port;
}

/**
 * A listener whose accept queue is full and which accepts nothing more until `release()`: the kernel drops
 * new SYNs, so a connect hangs (and, after release, completes only at the client's SYN retransmit, ~1 s).
 * The server lives in a worker whose event loop is blocked, so it truly never calls accept().
 */
export async function fullBacklogListener(): Promise<{ port: number; release: () => void; close: () => Promise<void> }> {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const net = require("node:net");
     const { parentPort, workerData: gate } = require("node:worker_threads");
     const server = net.createServer((s) => s.on("error", () => {})).listen({ host: "127.0.0.1", port: 0, backlog: 1 }, () => {
       parentPort.postMessage(server.address().port);
       Atomics.wait(gate, 0, 0, 20000); // block the loop: no accept() until released
       parentPort.on("message", () => server.close(() => parentPort.close()));
     });`,
    { eval: true, workerData: gate },
  );
  const port = await new Promise<number>((resolve) => worker.once("message", resolve));
  // Fill the queue: connections that complete the handshake but are never accepted.
  const fillers: Socket[] = [];
  for (let i = 0; i < 16; i++) {
    const s = connect({ host: "127.0.0.1", port });
    s.on("error", () => {});
    fillers.push(s);
    const connected = await new Promise<boolean>((resolve) => {
      s.once("connect", () => resolve(true));
      setTimeout(() => resolve(false), 150);
    });
    if (!connected) break; // this SYN was dropped: the queue is full
  }
  const release = () => {
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  return {
    port,
    release,
    close: async () => {
      release();
      for (const s of fillers) s.destroy();
      worker.postMessage("close");
      await worker.terminate();
    },
  };
}
