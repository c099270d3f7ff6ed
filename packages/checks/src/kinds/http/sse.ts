import { createParser, type EventSourceParser } from "eventsource-parser";

/** Incremental text/event-stream parsing (the ecosystem's parser): feed decoded text, get each completed event's data. */
export class SseParser {
  #out: string[] = [];
  #parser: EventSourceParser = createParser({ onEvent: (event) => this.#out.push(event.data) });

  push(text: string): string[] {
    this.#parser.feed(text);
    return this.#drain();
  }

  /** The stream ended: a last event without its blank line still counts (servers often omit it). */
  end(): string[] {
    // Ending the open line and the event (a "\n" after a trailing "\r" completes a CRLF, hence two blank lines).
    this.#parser.feed("\n\n\n");
    return this.#drain();
  }

  #drain(): string[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }
}

/** The data of every event in a complete event stream. */
export function parseSse(text: string): string[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()];
}
