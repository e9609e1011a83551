/**
 * The container commands the docs give Docker users (docs/server.md, "Run it in a container", and
 * the README's one line), read from the Markdown, and their translation into podman as it runs
 * here. The test runs the translation, so the docs cannot drift from what was proven. Nothing is
 * added but what the machine needs, and names made unique to the run:
 *
 * - `docker` is podman with its global flags; `run` gets the rlimit flags (podman.ts);
 * - a published host port (`-p 4010:4010`) becomes a free one, the container's port stays;
 * - container, volume and network names get the run's suffix;
 * - `host-gateway` (Docker's name for the host, which podman 4.3 lacks) is the gateway address of
 *   podman's network, where the host is reached from a container;
 * - the Compose file's services become `podman run`s on a network of the run, each reachable by
 *   its service name (a network alias), as Compose does (podman-compose is not installed).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { PODMAN, RUN_FLAGS } from "./podman.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The section of docs/server.md about containers. */
export function containerSection(): string {
  const text = readFileSync(join(ROOT, "docs/server.md"), "utf8");
  const start = text.indexOf("\n## Run it in a container\n");
  if (start === -1) throw new TypeError('docs/server.md has no "Run it in a container" section');
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of a language in a Markdown text, in order. */
export function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```(\S*)[^\n]*\n([\s\S]*?)^```$/gm)].filter((match) => match[1] === language).map((match) => match[2]!);
}

/** The commands of a shell block: continuation lines joined, comments and blank lines dropped. */
export function shellCommands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** A command line split into words as a POSIX shell would (single and double quotes; no expansion). */
export function words(command: string): string[] {
  const result: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += quote === '"' && char === "\\" ? command[++index]! : char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== undefined) result.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (quote !== undefined) throw new TypeError(`unterminated quote in: ${command}`);
  if (word !== undefined) result.push(word);
  return result;
}

/** The docker commands of docs/server.md's container section, each with the block it came from. */
export function documentedDockerCommands(): string[] {
  return blocks(containerSection(), "sh")
    .flatMap(shellCommands)
    .filter((command) => command.startsWith("docker "));
}

/** The README's one-line `docker run`. */
export function readmeDockerRun(): string {
  const match = /`(docker run [^`]+)`/.exec(readFileSync(join(ROOT, "README.md"), "utf8"));
  if (match === null) throw new TypeError("README.md shows no `docker run`");
  return match[1]!;
}

/** What a translation needs to know about this run. */
export interface Translation {
  /** Appended to container, volume and network names. */
  readonly suffix: string;
  /** Host port of the docs → host port of this run. */
  readonly ports: ReadonlyMap<number, number>;
  /** The address of the host as a container reaches it. */
  readonly gateway: string;
}

const named = (name: string, { suffix }: Translation) => `${name}-${suffix}`;

function publish(spec: string, translation: Translation): string {
  const match = /^(\d+):(\d+)$/.exec(spec);
  if (match === null) throw new TypeError(`a published port of the docs is HOST:CONTAINER, not ${spec}`);
  const host = translation.ports.get(Number(match[1]));
  if (host === undefined) throw new TypeError(`no port of this run for the docs' host port ${match[1]}`);
  return `${host}:${match[2]}`;
}

function volume(spec: string, translation: Translation): string {
  const [source, ...rest] = spec.split(":");
  // A named volume gets the run's suffix; a path is left as it is.
  return source!.includes("/") ? spec : [named(source!, translation), ...rest].join(":");
}

/** Options of `docker run` that take a value, and how a value is translated. */
const RUN_OPTIONS: Record<string, (value: string, translation: Translation) => string> = {
  "-p": publish,
  "--publish": publish,
  "-v": volume,
  "--volume": volume,
  "--name": named,
  "--add-host": (value, { gateway }) => value.replace(/:host-gateway$/, `:${gateway}`),
  "-e": (value) => value,
  "--env": (value) => value,
};

/** `docker run` words after `run`, translated up to the image; the image and its arguments as they are. */
function translateRun(args: readonly string[], translation: Translation): string[] {
  const out: string[] = [...RUN_FLAGS];
  for (let index = 0; index < args.length; index++) {
    const word = args[index]!;
    const [flag, inline] =
      word.startsWith("--") && word.includes("=") ? [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)] : [word, undefined];
    const translate = RUN_OPTIONS[flag];
    if (translate !== undefined) {
      const value = inline ?? args[++index];
      if (value === undefined) throw new TypeError(`${flag} without a value`);
      out.push(flag, translate(value, translation));
    } else if (word === "-d" || word === "--rm" || word === "--detach") {
      out.push(word);
    } else if (word.startsWith("-")) {
      throw new TypeError(`the translation does not know docker run's ${word}: add it to RUN_OPTIONS`);
    } else {
      return [...out, ...args.slice(index)];
    }
  }
  throw new TypeError("docker run without an image");
}

/**
 * A documented docker command as podman runs it here.
 * @param command - the command as the docs write it
 * @returns the podman command line, global flags included
 */
export function toPodman(command: string, translation: Translation): string[] {
  const [docker, subcommand, ...args] = words(command);
  if (docker !== "docker" || subcommand === undefined) throw new TypeError(`not a docker command: ${command}`);
  if (subcommand === "run") return [...PODMAN, "run", ...translateRun(args, translation)];
  if (["restart", "start", "stop", "logs", "rm"].includes(subcommand)) {
    return [...PODMAN, subcommand, ...args.map((word) => (word.startsWith("-") ? word : named(word, translation)))];
  }
  throw new TypeError(`the translation does not know docker ${subcommand}`);
}

/** A service of the Compose file, as far as the docs use the format. */
export interface ComposeService {
  readonly image: string;
  readonly command?: string[] | string;
  readonly environment?: Record<string, string>;
  readonly ports?: string[];
  readonly volumes?: string[];
  readonly depends_on?: Record<string, { condition: string }>;
}

/** The Compose file of docs/server.md. */
export function composeFile(): { services: Record<string, ComposeService>; volumes?: Record<string, unknown> } {
  const [yaml] = blocks(containerSection(), "yaml");
  if (yaml === undefined) throw new TypeError("the container section has no Compose file");
  return parse(yaml) as { services: Record<string, ComposeService>; volumes?: Record<string, unknown> };
}

/**
 * `podman run` of a Compose service, as Compose starts it: detached, on the project's network,
 * reachable by its service name, with its environment, ports, volumes and command.
 * @param name - the service's name
 * @param service - the service
 * @param network - the network of the run
 * @param image - the image to run instead of the service's (for a service that stands for the reader's own)
 */
export function composeRun(name: string, service: ComposeService, network: string, translation: Translation, image = service.image): string[] {
  const command = service.command === undefined ? [] : typeof service.command === "string" ? words(service.command) : service.command;
  return [
    ...PODMAN,
    "run",
    ...RUN_FLAGS,
    "-d",
    "--name",
    named(name, translation),
    "--network",
    network,
    "--network-alias",
    name,
    ...Object.entries(service.environment ?? {}).flatMap(([key, value]) => ["-e", `${key}=${value}`]),
    ...(service.ports ?? []).flatMap((spec) => ["-p", publish(spec, translation)]),
    ...(service.volumes ?? []).flatMap((spec) => ["-v", volume(spec, translation)]),
    image,
    ...command,
  ];
}
