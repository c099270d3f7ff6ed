// Certificates the tests make (selfsigned): a leaf for 127.0.0.1/localhost ending in a given number of days.
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import { TLSSocket } from "node:tls";
import selfsigned from "selfsigned";
import type { Running } from "./servers";

export interface TestCertificate {
  cert: string;
  key: string;
  notAfter: Date;
}

export async function makeCertificate(daysLeft: number, commonName = "localhost"): Promise<TestCertificate> {
  const notBeforeDate = new Date(Date.now() - 86_400_000);
  // Half a day past the whole day, so "days left" is the same whole number however long the test takes.
  const notAfter = new Date(Date.now() + daysLeft * 86_400_000 + 43_200_000);
  const pems = await selfsigned.generate(
    [
      { name: "commonName", value: commonName },
      { name: "organizationName", value: "Vigil Test CA" },
    ],
    {
      notBeforeDate,
      notAfterDate: notAfter,
      keySize: 2048,
      algorithm: "sha256",
      extensions: [
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
          ],
        },
      ],
    },
  );
  return { cert: pems.cert, key: pems.private, notAfter };
}

function track(server: import("node:net").Server, host: string): Promise<Running> {
  const sockets = new Set<Socket>();
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen({ host, port: 0 }, () => {
      const { port } = server.address() as { port: number };
      resolve({
        host,
        port,
        origin: `https://${host}:${port}`,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** An HTTPS server answering 200 "ok" with `certificate`; `onRequest` sees every request that got through. */
export const listenHttps = (certificate: { cert: string; key: string }, onRequest?: () => void): Promise<Running> =>
  track(
    createHttpsServer(certificate, (_req, res) => {
      onRequest?.();
      res.end("ok");
    }),
    "127.0.0.1",
  );

/**
 * An SMTP-like server that speaks plain text until STARTTLS, then TLS with `certificate`; `protocol`
 * picks the dialogue (smtp, imap, or postgres' SSLRequest byte).
 */
export function listenStartTls(certificate: { cert: string; key: string }, protocol: "smtp" | "imap" | "postgres"): Promise<Running> {
  const upgrade = (socket: Socket) => {
    socket.removeAllListeners("data");
    const secure = new TLSSocket(socket, { isServer: true, ...certificate });
    secure.on("error", () => socket.destroy());
  };
  const server = createNetServer((socket) => {
    socket.on("error", () => {});
    if (protocol === "smtp") {
      socket.write("220 mail.test ESMTP\r\n");
      socket.on("data", (d) => {
        const line = d.toString();
        if (line.startsWith("EHLO")) socket.write("250-mail.test\r\n250 STARTTLS\r\n");
        else if (line.startsWith("STARTTLS")) {
          socket.write("220 go ahead\r\n");
          upgrade(socket);
        }
      });
    } else if (protocol === "imap") {
      socket.write("* OK IMAP4rev1 ready\r\n");
      socket.on("data", (d) => {
        const [tag] = d.toString().split(" ");
        socket.write(`${tag} OK begin TLS\r\n`);
        upgrade(socket);
      });
    } else {
      socket.once("data", () => {
        socket.write("S");
        upgrade(socket);
      });
    }
  });
  return track(server, "127.0.0.1");
}

/** A plain TLS server (no HTTP) with `certificate`; `use` swaps the certificate for later connections. */
export async function listenTls(certificate: {
  cert: string;
  key: string;
}): Promise<Running & { use: (c: { cert: string; key: string }) => void }> {
  let current = certificate;
  const server = createNetServer((socket) => {
    socket.on("error", () => {});
    const secure = new TLSSocket(socket, { isServer: true, ...current });
    secure.on("error", () => socket.destroy());
  });
  const running = await track(server, "127.0.0.1");
  return Object.assign(running, {
    use: (c: { cert: string; key: string }) => {
      current = c;
    },
  });
}
