import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notify } from "../notify";
import { type CaptureServer, expectedRequest, startCaptureServer, TEST_EVENTS, TEST_NOW, testEnv } from "../testing";

let server: CaptureServer;
beforeAll(async () => {
  server = await startCaptureServer(() => ({ status: 200, body: "{}" }));
});
afterAll(() => server.close());

async function deliver(type: keyof typeof TEST_EVENTS) {
  const result = await notify(
    { kind: "google-chat", config: { webhookUrl: `${server.url}/v1/spaces/AAA/messages?key=k&token=t` } },
    TEST_EVENTS[type],
    testEnv(server.url),
    { now: TEST_NOW },
  );
  expect(result).toEqual({ ok: true, status: 200 });
  return server.requests.at(-1);
}

describe("google-chat channel", () => {
  it("an error posts a text line and a card with every fact and a button to the monitor", async () => {
    expect(await deliver("error")).toEqual(
      expectedRequest("/v1/spaces/AAA/messages?key=k&token=t", [["content-type", "application/json; charset=UTF-8"]], {
        text: "🔴 API health is down",
        cardsV2: [
          {
            cardId: "vigil-monitor-42",
            card: {
              header: {
                title: "API health is down",
                subtitle: "Vigil",
              },
              sections: [
                {
                  widgets: [
                    {
                      decoratedText: {
                        topLabel: "Status",
                        text: "error",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "URL",
                        text: "https://api.example.com/health",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Time",
                        text: "2024-05-01T12:00:00.000Z",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Status code",
                        text: "503",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Latency",
                        text: "1532 ms",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Error",
                        text: "expected status 200, got 503",
                        wrapText: true,
                      },
                    },
                    {
                      buttonList: {
                        buttons: [
                          {
                            text: "Open in Vigil",
                            onClick: {
                              openLink: {
                                url: "https://vigil.example.com/monitors/42",
                              },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("degraded posts a card with the slow latency", async () => {
    expect(await deliver("degraded")).toEqual(
      expectedRequest("/v1/spaces/AAA/messages?key=k&token=t", [["content-type", "application/json; charset=UTF-8"]], {
        text: "🟠 API health is degraded",
        cardsV2: [
          {
            cardId: "vigil-monitor-42",
            card: {
              header: {
                title: "API health is degraded",
                subtitle: "Vigil",
              },
              sections: [
                {
                  widgets: [
                    {
                      decoratedText: {
                        topLabel: "Status",
                        text: "degraded",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "URL",
                        text: "https://api.example.com/health",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Time",
                        text: "2024-05-01T12:00:00.000Z",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Status code",
                        text: "200",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Latency",
                        text: "2450 ms",
                        wrapText: true,
                      },
                    },
                    {
                      buttonList: {
                        buttons: [
                          {
                            text: "Open in Vigil",
                            onClick: {
                              openLink: {
                                url: "https://vigil.example.com/monitors/42",
                              },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("a recovery posts a card with the status code and latency", async () => {
    expect(await deliver("recovered")).toEqual(
      expectedRequest("/v1/spaces/AAA/messages?key=k&token=t", [["content-type", "application/json; charset=UTF-8"]], {
        text: "🟢 API health has recovered",
        cardsV2: [
          {
            cardId: "vigil-monitor-42",
            card: {
              header: {
                title: "API health has recovered",
                subtitle: "Vigil",
              },
              sections: [
                {
                  widgets: [
                    {
                      decoratedText: {
                        topLabel: "Status",
                        text: "recovered",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "URL",
                        text: "https://api.example.com/health",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Time",
                        text: "2024-05-01T12:00:00.000Z",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Status code",
                        text: "200",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Latency",
                        text: "87 ms",
                        wrapText: true,
                      },
                    },
                    {
                      buttonList: {
                        buttons: [
                          {
                            text: "Open in Vigil",
                            onClick: {
                              openLink: {
                                url: "https://vigil.example.com/monitors/42",
                              },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
  });

  it("a test posts a card with the monitor's name, URL and time", async () => {
    expect(await deliver("test")).toEqual(
      expectedRequest("/v1/spaces/AAA/messages?key=k&token=t", [["content-type", "application/json; charset=UTF-8"]], {
        text: "🔔 Test notification for API health",
        cardsV2: [
          {
            cardId: "vigil-monitor-42",
            card: {
              header: {
                title: "Test notification for API health",
                subtitle: "Vigil",
              },
              sections: [
                {
                  widgets: [
                    {
                      decoratedText: {
                        topLabel: "Status",
                        text: "test",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "URL",
                        text: "https://api.example.com/health",
                        wrapText: true,
                      },
                    },
                    {
                      decoratedText: {
                        topLabel: "Time",
                        text: "2024-05-01T12:00:00.000Z",
                        wrapText: true,
                      },
                    },
                    {
                      buttonList: {
                        buttons: [
                          {
                            text: "Open in Vigil",
                            onClick: {
                              openLink: {
                                url: "https://vigil.example.com/monitors/42",
                              },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              ],
            },
          },
        ],
      }),
    );
  });
});

describe("google-chat escaping", () => {
  it("an error text with markup is escaped inside the card's decorated text", async () => {
    const event = { ...TEST_EVENTS.error, errorMessage: `<font color="red">x</font> & y` };
    await notify({ kind: "google-chat", config: { webhookUrl: `${server.url}/g` } }, event, testEnv(server.url), { now: TEST_NOW });
    const widgets = JSON.parse(server.requests.at(-1)!.body).cardsV2[0].card.sections[0].widgets;
    expect(widgets[5].decoratedText).toEqual({
      topLabel: "Error",
      text: "&lt;font color=&quot;red&quot;&gt;x&lt;/font&gt; &amp; y",
      wrapText: true,
    });
  });
});
