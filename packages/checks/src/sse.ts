/**
 * Incremental text/event-stream parser (WHATWG rules, only `data` matters here): feed decoded text as it
 * arrives, get back the data of each completed event.
 */
export class SseParser {
  #buffer = "";
  #data: string[] = [];
  #afterCr = false;

  push(text: string): string[] {
    // "\r\n" split across two chunks: the "\r" already ended the line, so the "\n" must not end another.
    const chunk = this.#afterCr && text.startsWith("\n") ? text.slice(1) : text;
    if (text.length > 0) this.#afterCr = text.endsWith("\r");
    this.#buffer += chunk;
    const out: string[] = [];
    const lines = this.#buffer.split(/\r\n|\r|\n/);
    this.#buffer = lines.pop() ?? "";
    for (const line of lines) this.#line(line, out);
    return out;
  }

  /** The stream ended: a last event without its blank line still counts (servers often omit it). */
  end(): string[] {
    const out: string[] = [];
    const rest = this.#buffer;
    this.#buffer = "";
    if (rest) this.#line(rest, out);
    this.#line("", out);
    return out;
  }

  #line(line: string, out: string[]): void {
    if (line === "") {
      if (this.#data.length > 0) out.push(this.#data.join("\n"));
      this.#data = [];
      return;
    }
    if (line.startsWith(":")) return; // comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "data") return;
    const value = colon === -1 ? "" : line.slice(colon + 1);
    this.#data.push(value.startsWith(" ") ? value.slice(1) : value);
  }
}

/** The data of every event in a complete event stream. */
export function parseSse(text: string): string[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()];
}
