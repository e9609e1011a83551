/**
 * A state file path that is a symbolic link is resolved once, at start, to the file it names:
 * every write (appends, the compaction's temporary file and its rename, the lock) happens beside
 * that target, so the link stays a link to the one file that holds the state. A dangling link's
 * target is created. Two paths to one file share one lock.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-links-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

const running = new Set<MockServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

async function start(stateFile: string): Promise<MockServer> {
  const server = await startMockServer({ port: 0, apiKeys: ["links_key"], seed: 5, stateFile, webhooks: { deliver: false } });
  running.add(server);
  return server;
}

async function stop(server: MockServer): Promise<void> {
  running.delete(server);
  await server.close();
}

/** A fresh folder with a `data` folder for the targets. */
function folder(): { base: string; data: string } {
  const base = join(dir, `case-${++count}`);
  const data = join(base, "data");
  mkdirSync(data, { recursive: true });
  return { base, data };
}

const LINKS: readonly [string, (base: string, data: string) => { link: string; target: string; existing: boolean }][] = [
  [
    "a link to an existing state file",
    (base, data) => {
      const target = join(data, "state.jsonl");
      return { link: join(base, "state.jsonl"), target, existing: true };
    },
  ],
  [
    "a dangling link (its target is created)",
    (base, data) => ({ link: join(base, "state.jsonl"), target: join(data, "new.jsonl"), existing: false }),
  ],
  [
    "a relative link through a linked folder",
    (base) => ({ link: join(base, "state.jsonl"), target: join(base, "linked", "rel.jsonl"), existing: false }),
  ],
];

describe("a state file path that is a link", () => {
  it.each(LINKS)("%s: every write lands in the target, the link stays a link", async (name, paths) => {
    const { base, data } = folder();
    const { link, target, existing } = paths(base, data);
    if (existing) await stop(await start(target)); // a state file already there
    if (name.startsWith("a relative")) {
      symlinkSync("data", join(base, "linked"));
      symlinkSync("linked/rel.jsonl", link);
    } else symlinkSync(target, link);
    const linkedTo = readlinkSync(link);

    const server = await start(link);
    server.api.state.pages.create({ id: "page_through_the_link" });
    await new Promise((done) => setImmediate(done));
    expect(readFileSync(target, "utf8")).toContain("page_through_the_link"); // appended to the target
    expect(existsSync(`${realTarget(target)}.lock`)).toBe(true); // the lock beside the target
    await stop(server); // compacts: a new file renamed over the target, not over the link

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(linkedTo);
    expect(statSync(realTarget(target)).mode & 0o777).toBe(0o600);
    expect(readFileSync(link, "utf8")).toBe(readFileSync(target, "utf8"));
    expect(existsSync(`${link}.tmp`) || existsSync(`${realTarget(target)}.tmp`)).toBe(false);
    expect((await start(target)).api.state.pages.get("page_through_the_link")).toBeDefined();
  });

  it("a server on the link and a server on its target share one lock", async () => {
    const { base, data } = folder();
    const target = join(data, "state.jsonl");
    const link = join(base, "state.jsonl");
    symlinkSync(target, link);
    await start(link);
    await expect(startMockServer({ port: 0, stateFile: target })).rejects.toThrow(/in use by another prospectkit-mock/);
  });
});

/** The target with the links among its folders resolved (where the lock and the temporary file go). */
function realTarget(target: string): string {
  const parent = join(target, "..");
  return join(realpathSync(parent), basename(target));
}
