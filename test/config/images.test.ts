import { describe, expect, it } from "vitest";
import { readImagesConfig } from "../../src/config/images.ts";
import { ConfigError } from "../../src/errors.ts";

describe("images", () => {
  it("should trust no other host by default", () => {
    expect(readImagesConfig({})).toEqual({ allowHosts: [] });
    expect(readImagesConfig({ EVENT_IMAGE_ALLOW_HOSTS: " " })).toEqual({ allowHosts: [] });
  });

  it("should read EVENT_IMAGE_ALLOW_HOSTS as host names and addresses, in lower case, once each", () => {
    const config = readImagesConfig({
      EVENT_IMAGE_ALLOW_HOSTS:
        " Images.Intranet.Example, 10.0.0.5,[::1], images.intranet.example ,",
    });
    expect(config.allowHosts).toEqual(["images.intranet.example", "10.0.0.5", "::1"]);
  });

  it("should refuse what is not a host in one line naming the setting", () => {
    for (const value of [
      "https://images.example.org",
      "images.example.org:8080",
      "a b",
      "*.example.org",
    ]) {
      expect(() => readImagesConfig({ EVENT_IMAGE_ALLOW_HOSTS: value })).toThrow(ConfigError);
      expect(() => readImagesConfig({ EVENT_IMAGE_ALLOW_HOSTS: value })).toThrow(
        /^EVENT_IMAGE_ALLOW_HOSTS: ".*" is not a host name or IP address/,
      );
    }
  });
});
