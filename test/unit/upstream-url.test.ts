// Which upstream URLs the gateway may connect to (src/gateway/upstream-url.ts): public https only;
// plain http to loopback only with the development flag.
import { describe, expect, it } from "vitest";
import { checkUpstreamUrl } from "../../src/gateway/upstream-url";

const refused = (url: string, dev = false) => {
  try {
    checkUpstreamUrl(url, dev);
    return null;
  } catch (err) {
    return (err as { details?: { field?: string } }).details?.field ?? "thrown";
  }
};

describe("upstream URLs", () => {
  it("takes public https hosts and addresses", () => {
    for (const url of [
      "https://mcp.example.com/mcp",
      "https://8.8.8.8/mcp",
      "https://[2606:4700::1111]/mcp",
    ]) {
      expect(refused(url), url).toBeNull();
    }
  });

  it("refuses loopback, private, link-local, CGNAT, multicast and mapped addresses with field url", () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://172.16.0.1/",
      "https://172.31.255.255/",
      "https://192.168.1.1/",
      "https://169.254.169.254/",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://224.0.0.1/",
      "https://[::1]/",
      "https://[::]/",
      "https://[fc00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:10.0.0.1]/",
      "https://localhost/",
      "https://api.localhost/",
      "https://printer.local/",
      "https://metadata.google.internal/",
      "https://intranet/",
    ]) {
      expect(refused(url), url).toBe("url");
    }
  });

  it("allows plain http only to loopback, and only with the development flag", () => {
    expect(refused("http://127.0.0.1:8788/mcp", true)).toBeNull();
    expect(refused("http://localhost:8788/mcp", true)).toBeNull();
    expect(refused("http://[::1]:8788/mcp", true)).toBeNull();
    expect(refused("http://127.0.0.1:8788/mcp", false)).toBe("url");
    expect(refused("http://mcp.example.com/mcp", true)).toBe("url");
    expect(refused("http://10.0.0.1/mcp", true)).toBe("url");
    expect(refused("ftp://127.0.0.1/", true)).toBe("url");
  });
});
