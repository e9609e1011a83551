/**
 * The project's own single-rule mutants of a deployment: each the real mock behind a small handler
 * that breaks exactly one rule of the spec or of docs/behaviour.md. test/verify/mutation.test.ts
 * runs verify's engine (`--strict`) against each and requires every one killed, and every contract
 * rule the target of at least one.
 */
import type { Mutant } from "../mutation.js";
import { API_MUTANTS } from "./api.js";
import { CREATE_MUTANTS } from "./create.js";
import { PAGE_SUBSCRIPTION_MUTANTS } from "./page-subscription.js";

export type { Mutant };

/** Every mutant. */
export const MUTANTS: readonly Mutant[] = [...API_MUTANTS, ...CREATE_MUTANTS, ...PAGE_SUBSCRIPTION_MUTANTS];
