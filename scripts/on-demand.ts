// Socket activation for the local web apps (like systemd's): the launcher holds the app's port, starts the app
// on the first connection and pipes connections to it on a loopback port of its own; when no byte has moved for
// `idleMs` it stops the app (a kept-alive connection left open between requests does not keep it up), and the
// next connection starts it again. A connection that arrives while the app starts (or stops) waits for it: none
// is refused or lost. A stack nobody is looking at holds no Next server.
import { connect, createServer, type Server, type Socket } from "node:net";
import { proxyHeader } from "../packages/rate-limit/src/proxy-header";
import { answerStoppedScrape } from "./stopped-metrics";

export interface OnDemandOptions {
  /** The public address the launcher listens on. */
  host: string;
  port: number;
  /** The loopback port the app itself listens on. */
  innerPort: number;
  idleMs: number;
  /** Starts the app on `innerPort` (the launcher's run(): a crash is restarted there, with its backoff). */
  start: () => void;
  /** Asks the app to exit; the launcher calls `exited()` once it has. */
  stop: () => void;
  log: (line: string) => void;
  /**
   * When set, each forwarded connection starts with a PROXY header naming its client and carrying this
   * secret, so the app counts per-client limits by the client and not by the launcher's 127.0.0.1.
   */
  proxySecret?: string;
  /** When set, a scrape of /metrics while the app is stopped is answered here (with this token), not started. */
  metrics?: { service: string; token: string };
}

type State = "off" | "starting" | "up" | "stopping";

export class OnDemand {
  private readonly server: Server;
  private state: State = "off";
  private readonly waiting: Socket[] = [];
  private readonly open = new Set<Socket>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** When a connection last opened or moved a byte either way. */
  private lastActivity = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: OnDemandOptions) {
    // Paused: nothing is read from a waiting connection before it is piped to the app.
    this.server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (socket) => this.accept(socket));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.o.port, this.o.host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  /** Whether the app's process is wanted now (started and not stopped for idleness). */
  get running(): boolean {
    return this.state !== "off";
  }

  /** The launcher saw the app's process exit: after an idle stop it stays off, after a crash it is coming back. */
  exited(): void {
    if (this.closed) return;
    if (this.state === "stopping") {
      this.state = "off";
      // Connections that came in while it stopped start it again.
      if (this.waiting.length > 0) this.boot();
      return;
    }
    this.state = "starting";
    this.probe();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.probeTimer);
    this.server.close();
    for (const s of [...this.waiting, ...this.open]) s.destroy();
  }

  private accept(socket: Socket) {
    this.open.add(socket);
    socket.once("close", () => this.open.delete(socket));
    socket.on("error", () => socket.destroy());
    if (this.state === "up") {
      this.lastActivity = Date.now();
      return this.pipe(socket);
    }
    const metrics = this.o.metrics;
    if (!metrics || this.state === "starting") return this.wait(socket);
    // Stopped (or stopping): a scrape is answered here; anything else starts the app as usual.
    void answerStoppedScrape(socket, metrics.service, metrics.token).then((answered) => {
      if (!answered && !socket.destroyed && !this.closed) this.wait(socket);
    });
  }

  private wait(socket: Socket) {
    this.lastActivity = Date.now();
    if (this.state === "up") return this.pipe(socket);
    this.waiting.push(socket);
    if (this.state === "off") this.boot();
  }

  private boot() {
    this.o.log("started on the first request");
    this.state = "starting";
    this.o.start();
    this.probe();
  }

  /** Ready once the app accepts a connection on its own port; until then connections wait. */
  private probe() {
    clearTimeout(this.probeTimer);
    if (this.closed || this.state !== "starting") return;
    const s = connect(this.o.innerPort, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      if (this.state !== "starting") return;
      this.state = "up";
      for (const w of this.waiting.splice(0)) this.pipe(w);
      this.armIdle();
    });
    s.once("error", () => {
      s.destroy();
      this.probeTimer = setTimeout(() => this.probe(), 100);
    });
  }

  private pipe(socket: Socket) {
    if (socket.destroyed) return;
    // Not half-open: when the app hangs up, this side closes too (a client may keep its own side open).
    const app = connect({ port: this.o.innerPort, host: "127.0.0.1" });
    app.on("error", () => socket.destroy());
    socket.once("close", () => app.destroy());
    if (this.o.proxySecret && socket.remoteAddress && socket.remotePort && socket.localAddress && socket.localPort) {
      const client = { address: socket.remoteAddress, port: socket.remotePort };
      app.write(proxyHeader(client, { address: socket.localAddress, port: socket.localPort }, this.o.proxySecret));
    }
    // The app has answered and hung up: so does the client's connection, once what is buffered has been sent.
    app.once("close", () => socket.end(() => socket.destroy()));
    const active = () => {
      this.lastActivity = Date.now();
    };
    socket.on("data", active);
    app.on("data", active);
    socket.pipe(app);
    app.pipe(socket);
  }

  /** Checks again when `idleMs` will have passed since the last activity; stops the app once it has. */
  private armIdle(waitMs = this.o.idleMs) {
    clearTimeout(this.idleTimer);
    if (this.closed || this.state !== "up") return;
    this.idleTimer = setTimeout(() => {
      if (this.state !== "up") return;
      const quiet = Date.now() - this.lastActivity;
      if (quiet < this.o.idleMs) return this.armIdle(this.o.idleMs - quiet);
      this.o.log(`stopped after ${this.o.idleMs / 1000} s without a request (it starts again on the next one)`);
      this.state = "stopping";
      this.o.stop();
    }, waitMs);
  }
}
