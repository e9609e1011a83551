/**
 * Did you mean: a mistyped option or command of `prospectkit-mock` (and of `verify`) names the
 * closest known ones, by the edit distance git, commander and yargs use, and nothing when none is close.
 */
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../../mock/server/cli/args.js";
import { closest, editDistance } from "../../mock/server/cli/suggest.js";
import { parseVerifyArgs } from "../../mock/server/cli/verify.js";

describe("the edit distance: insertions, deletions, substitutions and swaps of neighbours", () => {
  it.each([
    ["port", "port", 0],
    ["prot", "port", 1], // a swap of neighbours is one edit
    ["quite", "quiet", 1],
    ["por", "port", 1],
    ["portt", "port", 1],
    ["api_key", "api-key", 1],
    ["kitten", "sitting", 3],
    ["", "seed", 4],
    ["ca", "abc", 3], // optimal string alignment: a swapped pair is not edited again
  ])("%j to %j: %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe("the suggestions: the closest words within 3 edits that keep more than 40% alike", () => {
  const OPTIONS = ["--port", "--host", "--data", "--state", "--seed", "--quiet", "-p", "-q"];
  it.each([
    ["--prot", ["--port"]],
    ["--Port", ["--port"]],
    ["--sate", ["--state"]],
    ["--dat", ["--data"]],
    ["--sed", ["--seed"]],
    ["--hots", ["--host"]],
    ["--bogus", []],
    ["--x", []], // never a one-letter word (-p, -q)
    ["--verbose", []],
  ])("%s: %j", (typed, expected) => {
    expect(closest(typed, OPTIONS)).toEqual(expected);
  });

  it("offers every word at the same smallest distance, sorted", () => {
    expect(closest("--seat", ["--state", "--seed", "--host"])).toEqual(["--seed", "--state"]);
  });
});

describe("prospectkit-mock: a mistyped option or command is a usage error that names the closest", () => {
  it.each([
    [["--prot", "4010"], "Unknown option '--prot'. Did you mean --port? (see --help)"],
    [["--prot=4010"], "Unknown option '--prot'. Did you mean --port? (see --help)"],
    [["--quite"], "Unknown option '--quite'. Did you mean --quiet? (see --help)"],
    [["--api_key", "k"], "Unknown option '--api_key'. Did you mean --api-key? (see --help)"],
    [["--webhook-timout", "5"], "Unknown option '--webhook-timout'. Did you mean --webhook-timeout? (see --help)"],
    [["--no-webhook"], "Unknown option '--no-webhook'. Did you mean --no-webhooks? (see --help)"],
    [["--cors-orgin", "https://a.example"], "Unknown option '--cors-orgin'. Did you mean --cors-origin? (see --help)"],
    [["--port", "0", "--sate", "s.json"], "Unknown option '--sate'. Did you mean --state? (see --help)"],
    [["verfy", "--base-url", "http://x"], "Unexpected argument 'verfy'. Did you mean verify? (see --help)"],
    [["--bogus"], "Unknown option '--bogus' (see --help)"],
    [["start"], "Unexpected argument 'start' (see --help)"],
    [["--port", "0", "verfy"], "Unexpected argument 'verfy' (see --help)"], // only a first word is a command
  ])("%j: %s", (argv, message) => {
    expect(() => parseCli(argv)).toThrow(new UsageError(message));
  });

  it("never repeats a value in the suggestion (a key stays out of the message)", () => {
    expect(() => parseCli(["--apikey=sk_secret_value"])).toThrow(new UsageError("Unknown option '--apikey'. Did you mean --api-key? (see --help)"));
  });
});

describe("prospectkit-mock verify: the same, pointing at verify --help", () => {
  it.each([
    [["--base-ulr", "http://x"], "Unknown option '--base-ulr'. Did you mean --base-url? (see verify --help)"],
    [["--strickt"], "Unknown option '--strickt'. Did you mean --strict? (see verify --help)"],
    [["--jsno"], "Unknown option '--jsno'. Did you mean --json? (see verify --help)"],
    [["--colour"], "Unknown option '--colour' (see verify --help)"],
  ])("%j: %s", (argv, message) => {
    expect(() => parseVerifyArgs(argv, {})).toThrow(new UsageError(message));
  });
});
