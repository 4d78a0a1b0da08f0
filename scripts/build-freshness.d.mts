// Types of scripts/build-freshness.mjs for the tests that import it.
export declare const BUILD_SOURCES: readonly string[];
export declare const BUILD_STAMP: string;
export declare function staleReason(root: string): string | undefined;
