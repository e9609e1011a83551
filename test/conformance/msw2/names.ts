/** Names shared by the throw-away msw 2 run (`suite.entry.ts`) and the test that reads its report. */

/** The target name the msw 2 run gives `defineConformanceSuite`. */
export const MSW2_TARGET = "MSW setupServer (msw 2)";

/** The title of the check that the msw loaded is msw 2. */
export const MSW2_CHECK = "the msw that prospectkit/mock and msw/node load is msw 2";
