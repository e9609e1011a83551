/**
 * Reads a command line with `node:util`'s `parseArgs` (strict, no positionals) and turns its
 * errors into one-line {@link UsageError}s that suggest the closest option or command: `Unknown
 * option '--prot'. Did you mean --port? (see --help)`.
 * @module
 */
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { didYouMean } from "./suggest.js";
import { UsageError } from "./usage-error.js";

/** What a command line is read against. */
export interface ArgsSpec<T extends ParseArgsOptionsConfig> {
  /** The options, as `parseArgs` takes them. */
  readonly options: T;
  /** Where the help is, closing each message: `--help`, `verify --help`. */
  readonly help: string;
  /** The commands a first word may name (`verify`), offered for a mistyped one. */
  readonly commands?: readonly string[];
}

/** The option words a user may type: `--port`, and `-p` for a short one. */
function optionWords(options: ParseArgsOptionsConfig): string[] {
  return Object.entries(options).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]);
}

/** What was mistyped, and what it may have meant: the first unknown option, or the first stray word. */
function suggestion(argv: readonly string[], spec: ArgsSpec<ParseArgsOptionsConfig>): string {
  const { tokens } = parseArgs({ args: [...argv], options: spec.options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind === "option" && !(token.name in spec.options)) return didYouMean(token.rawName, optionWords(spec.options));
    // Only a first word can be a command (`prospectkit-mock verify ...`).
    if (token.kind === "positional") return token.index === 0 ? didYouMean(token.value, spec.commands ?? []) : "";
  }
  return "";
}

/**
 * Reads the command line.
 * @param argv - the arguments
 * @param spec - the options, where the help is, the commands
 * @returns parseArgs' values
 * @throws {UsageError} for an unknown option (with the closest known ones), a missing value, or a stray argument (with the closest command)
 */
export function readArgs<T extends ParseArgsOptionsConfig>(argv: readonly string[], spec: ArgsSpec<T>) {
  try {
    return parseArgs({ args: [...argv], options: spec.options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // parseArgs' first sentence only: the rest is about positional arguments.
    const message = (error instanceof Error ? error.message : String(error)).split("\n", 1)[0]!.replace(/\.(?: .*)?$/, "");
    const code = (error as { code?: string }).code;
    const hint = code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL" ? suggestion(argv, spec) : "";
    throw new UsageError(`${message}${hint ? `.${hint}` : ""} (see ${spec.help})`);
  }
}
