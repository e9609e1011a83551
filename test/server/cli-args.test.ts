/** The command line, read in-process: every flag, its default, and every usage error. */
import { describe, expect, expectTypeOf, it } from "vitest";
import { DEFAULT_API_KEY } from "../../mock/core.js";
import { type CliOptions, parseCli, SERVER_VARIABLES, UsageError } from "../../mock/server/cli/args.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../../mock/server/start.js";

describe("parseCli", () => {
  it("defaults: port 4010, loopback, the development key, the demo data, every request printed", () => {
    expect(parseCli([], {})).toEqual({
      port: DEFAULT_PORT,
      host: DEFAULT_HOST,
      apiKeys: [DEFAULT_API_KEY],
      developmentKey: true,
      keyVariable: undefined,
      seed: undefined,
      dataFile: undefined,
      stateFile: undefined,
      demo: true,
      latencyMs: 0,
      webhooks: true,
      webhookTimeScale: 1,
      webhookTimeoutMs: 15_000,
      allowedHosts: [],
      corsOrigins: [],
      proxyTo: undefined,
      recordFile: undefined,
      fallback: false,
      quiet: false,
      help: false,
      version: false,
    });
    expect([DEFAULT_PORT, DEFAULT_HOST]).toEqual([4010, "127.0.0.1"]);
  });

  it.each([
    [["--port", "0"], { port: 0 }],
    [["-p", "65535"], { port: 65535 }],
    [["--port=8080"], { port: 8080 }],
    [["--host", "0.0.0.0"], { host: "0.0.0.0" }],
    [["--allowed-host", "mock", "--allowed-host", ".ngrok.app"], { allowedHosts: ["mock", ".ngrok.app"] }],
    [["--allowed-host", "*"], { allowedHosts: ["*"] }],
    [
      ["--cors-origin", "https://app.example.com", "--cors-origin", "http://10.0.0.5:5173"],
      { corsOrigins: ["https://app.example.com", "http://10.0.0.5:5173"] },
    ],
    [["--cors-origin", "*"], { corsOrigins: ["*"] }],
    [["--api-key", "a", "--api-key", "b"], { apiKeys: ["a", "b"], developmentKey: false }],
    [["--seed", "42"], { seed: 42 }],
    [["--seed=-7"], { seed: -7 }],
    [["--seed", "my-seed"], { seed: "my-seed" }],
    [["--data", "fixtures.json"], { dataFile: "fixtures.json" }],
    [["--state", "mock-state.jsonl"], { stateFile: "mock-state.jsonl" }],
    [["--no-demo"], { demo: false }],
    [["--latency", "250"], { latencyMs: 250 }],
    [["--latency", "0.5"], { latencyMs: 0.5 }],
    [["--no-webhooks"], { webhooks: false }],
    [["--webhook-time-scale", "3600"], { webhookTimeScale: 3600 }],
    [["--webhook-time-scale", "0.5"], { webhookTimeScale: 0.5 }],
    [["--webhook-timeout", "1"], { webhookTimeoutMs: 1 }],
    [["--webhook-timeout", "600000"], { webhookTimeoutMs: 600_000 }],
    [["--proxy-to", "https://staging.example.com"], { proxyTo: "https://staging.example.com", fallback: false, recordFile: undefined }],
    [["--proxy-to", "http://127.0.0.1:8080", "--record", "seen.json", "--fallback"], { recordFile: "seen.json", fallback: true }],
    [["-q"], { quiet: true }],
    [["-h"], { help: true }],
    [["-v"], { version: true }],
  ])("%j", (argv, expected) => {
    expect(parseCli(argv, {})).toMatchObject(expected);
  });

  describe("the environment, for what the command line leaves out", () => {
    it.each([
      [
        "the key from PROSPECTKIT_API_KEY, named, not the development key",
        [],
        { PROSPECTKIT_API_KEY: "env_key" },
        { apiKeys: ["env_key"], developmentKey: false, keyVariable: "PROSPECTKIT_API_KEY" },
      ],
      [
        "--api-key wins over PROSPECTKIT_API_KEY",
        ["--api-key", "flag_key"],
        { PROSPECTKIT_API_KEY: "env_key" },
        { apiKeys: ["flag_key"], developmentKey: false, keyVariable: undefined },
      ],
      [
        "an empty PROSPECTKIT_API_KEY is unset",
        [],
        { PROSPECTKIT_API_KEY: "" },
        { apiKeys: [DEFAULT_API_KEY], developmentKey: true, keyVariable: undefined },
      ],
      ["the host from PROSPECTKIT_MOCK_HOST", [], { PROSPECTKIT_MOCK_HOST: "0.0.0.0" }, { host: "0.0.0.0" }],
      ["--host wins over PROSPECTKIT_MOCK_HOST", ["--host", "127.0.0.1"], { PROSPECTKIT_MOCK_HOST: "0.0.0.0" }, { host: "127.0.0.1" }],
      ["an empty PROSPECTKIT_MOCK_HOST is unset", [], { PROSPECTKIT_MOCK_HOST: "" }, { host: DEFAULT_HOST }],
    ])("%s", (_, argv, env, expected) => {
      expect(parseCli(argv, env)).toMatchObject(expected);
    });

    it("reads exactly these variables", () => {
      expect(SERVER_VARIABLES).toEqual({ apiKey: "PROSPECTKIT_API_KEY", host: "PROSPECTKIT_MOCK_HOST" });
    });
  });

  it.each([
    [["--bogus"], "Unknown option '--bogus' (see --help)"],
    [["--port"], "Option '-p, --port <value>' argument missing (see --help)"],
    [["--port", "-1"], "Option '--port' argument is ambiguous (see --help)"],
    [["--port", "1.5"], '--port must be a whole number from 0 to 65535, not "1.5"'],
    [["--port", "99999"], '--port must be a whole number from 0 to 65535, not "99999"'],
    [["--latency", "soon"], '--latency must be milliseconds from 0 to 600000, not "soon"'],
    [["--allowed-host", "http://mock"], `--allowed-host must be a host name such as mock or .example.com (or '*'), not "http://mock"`],
    [["--allowed-host", ""], `--allowed-host must be a host name such as mock or .example.com (or '*'), not ""`],
    [["--cors-origin", "app.example.com"], `--cors-origin must be an origin such as https://app.example.com (or '*'), not "app.example.com"`],
    [
      ["--cors-origin", "https://app.example.com/path"],
      `--cors-origin must be an origin such as https://app.example.com (or '*'), not "https://app.example.com/path"`,
    ],
    [["--latency", "600001"], '--latency must be milliseconds from 0 to 600000, not "600001"'],
    [["--webhook-time-scale", "0"], '--webhook-time-scale must be a number above 0, up to 1000000000, not "0"'],
    [["--webhook-time-scale", "fast"], '--webhook-time-scale must be a number above 0, up to 1000000000, not "fast"'],
    [["--webhook-time-scale", "2000000000"], '--webhook-time-scale must be a number above 0, up to 1000000000, not "2000000000"'],
    [["--webhook-timeout", "0"], '--webhook-timeout must be whole milliseconds from 1 to 600000, not "0"'],
    [["--webhook-timeout", "1.5"], '--webhook-timeout must be whole milliseconds from 1 to 600000, not "1.5"'],
    [["--webhook-timeout", "600001"], '--webhook-timeout must be whole milliseconds from 1 to 600000, not "600001"'],
    [["--webhook-timeout", "soon"], '--webhook-timeout must be whole milliseconds from 1 to 600000, not "soon"'],
    [["--seed="], "--seed must not be empty"],
    [["--host="], "--host must not be empty"],
    [["--data="], "--data must name a file"],
    [["--state="], "--state must name a file"],
    [["--proxy-to", "staging.example.com"], '--proxy-to must be an http(s) URL, not "staging.example.com"'],
    [["--record", "seen.json"], "--record works with --proxy-to only"],
    [["--fallback"], "--fallback works with --proxy-to only"],
    [["--proxy-to", "http://127.0.0.1:1", "--record="], "--record must name a file"],
    [["start"], "Unexpected argument 'start' (see --help)"],
  ])("%j is a usage error: %s", (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(new UsageError(message));
  });

  it("never repeats a key in an error", () => {
    expect(() => parseCli(["--apikey=sk_secret_value"])).toThrow(/^Unknown option '--apikey'/);
    expect(() => parseCli(["--apikey=sk_secret_value"])).not.toThrow(/sk_secret_value/);
  });

  it("types", () => {
    expectTypeOf(parseCli).returns.toEqualTypeOf<CliOptions>();
    expectTypeOf<CliOptions["seed"]>().toEqualTypeOf<number | string | undefined>();
  });
});
