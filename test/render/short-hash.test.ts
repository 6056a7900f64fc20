import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/render/published-files.ts";
import { shortHash } from "../../src/short-hash.ts";

// A file's hash is compared with the hash the last publish's list holds: the same bytes must give
// the same text as before, or every file of a published site would count as changed and be
// written, uploaded and announced again.
describe("shortHash", () => {
  it("is the start of the digest's base64url text (SHA-256 and SHA-1 of 'abc')", () => {
    expect(shortHash("sha256", "abc", 22)).toBe("ungWv48Bz-pBQUDeXa4iI7");
    expect(shortHash("sha256", "abc", 43)).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(shortHash("sha1", "abc", 27)).toBe("qZk-NkcGgWq6PiVxeFDCbJzQ2J0");
  });

  it("reads a text as UTF-8, as bytes", () => {
    expect(shortHash("sha256", "é", 22)).toBe(shortHash("sha256", Buffer.from("é", "utf8"), 22));
    expect(shortHash("sha256", "é", 22)).not.toBe(
      shortHash("sha256", Buffer.from("é", "latin1"), 22),
    );
  });

  it("gives a file's hash as the published lists hold it", () => {
    expect(contentHash(Buffer.from("abc"))).toBe("ungWv48Bz-pBQUDeXa4iI7");
    expect(contentHash("abc")).toHaveLength(22);
  });
});
