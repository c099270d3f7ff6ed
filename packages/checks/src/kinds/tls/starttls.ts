import type { Socket } from "node:net";
import type { TlsCheck } from "./index";

/** Reads lines until `done` says the server's reply is complete; rejects when the connection ends first. */
function readReply(socket: Socket, done: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      if (buffer.length > 64 * 1024) return finish(new Error("reply too long"));
      const lines = buffer.split("\r\n");
      for (const line of lines.slice(0, -1)) if (done(line)) return finish(undefined, line);
    };
    const onEnd = () => finish(new Error(`connection closed${buffer ? ` after ${JSON.stringify(buffer.slice(0, 80))}` : ""}`));
    const finish = (err?: Error, line?: string) => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.off("close", onEnd);
      if (err) reject(err);
      else resolve(line!);
    };
    socket.on("data", onData);
    socket.once("end", onEnd);
    socket.once("close", onEnd);
  });
}

const expectLine = async (socket: Socket, done: (line: string) => boolean, ok: (line: string) => boolean, what: string) => {
  const line = await readReply(socket, done);
  if (!ok(line)) throw new Error(`${what}: server answered ${JSON.stringify(line.slice(0, 120))}`);
};

/** The protocol's own upgrade on a plain connection, so that the TLS handshake can start on it. */
export async function startTls(socket: Socket, protocol: NonNullable<TlsCheck["starttls"]>): Promise<void> {
  if (protocol === "smtp") {
    const final = (l: string) => /^\d{3} /.test(l);
    await expectLine(socket, final, (l) => l.startsWith("220"), "greeting");
    socket.write("EHLO vigil.local\r\n");
    await expectLine(socket, final, (l) => l.startsWith("250"), "EHLO");
    socket.write("STARTTLS\r\n");
    await expectLine(socket, final, (l) => l.startsWith("220"), "STARTTLS");
  } else if (protocol === "imap") {
    await expectLine(
      socket,
      (l) => l.startsWith("* "),
      (l) => /^\* (OK|PREAUTH)/i.test(l),
      "greeting",
    );
    socket.write("V1 STARTTLS\r\n");
    await expectLine(
      socket,
      (l) => l.startsWith("V1 "),
      (l) => /^V1 OK/i.test(l),
      "STARTTLS",
    );
  } else {
    // SSLRequest: length 8, then the code 80877103; the server answers one byte, S (go on) or N (no TLS).
    const request = Buffer.alloc(8);
    request.writeInt32BE(8, 0);
    request.writeInt32BE(80877103, 4);
    socket.write(request);
    const answer = await new Promise<number>((resolve, reject) => {
      const onEnd = () => reject(new Error("connection closed before the SSLRequest answer"));
      socket.once("data", (b: Buffer) => {
        socket.off("close", onEnd);
        resolve(b[0]!);
      });
      socket.once("close", onEnd);
    });
    if (answer !== 0x53) throw new Error(`SSLRequest: server ${answer === 0x4e ? "does not offer TLS (N)" : `answered byte ${answer}`}`);
  }
}
