import { describe, expect, it } from "vitest";
import { serveOnLoopback } from "../helpers/loopback-server.ts";
import { newSession } from "../helpers/webdriver-client.ts";

/*
 * The browser tests' WebDriver client (WebKitGTK's engine): a driver that
 * stops answering fails the command, naming it, within the session's limit,
 * instead of holding the test until the runner's own timeout says only that
 * it timed out.
 */
describe("the WebDriver client", () => {
  it("should fail a command the driver does not answer, naming it", async () => {
    let asked = 0;
    const driver = await serveOnLoopback((request, response) => {
      asked++;
      if (request.url === "/session") {
        response.setHeader("Content-Type", "application/json");
        response.end(JSON.stringify({ value: { sessionId: "s1", capabilities: {} } }));
      }
      // Any other command: accepted, never answered.
    });
    const session = await newSession(driver.origin, {}, 200);
    await expect(session.navigate("http://127.0.0.1:9/")).rejects.toThrow(
      "WebDriver POST /session/s1/url: no answer in 0.2 s (the browser stopped answering)",
    );
    expect(asked).toBe(2);
    await driver.close();
  });

  it("should give the driver's own error with its code", async () => {
    const driver = await serveOnLoopback((request, response) => {
      response.statusCode = request.url === "/session" ? 200 : 404;
      response.setHeader("Content-Type", "application/json");
      response.end(
        JSON.stringify({
          value:
            request.url === "/session"
              ? { sessionId: "s2", capabilities: {} }
              : { error: "no such window", message: "gone" },
        }),
      );
    });
    const session = await newSession(driver.origin, {}, 10_000);
    await expect(session.windowHandles()).rejects.toThrow(
      "WebDriver GET /session/s2/window/handles: no such window: gone",
    );
    await driver.close();
  });
});
