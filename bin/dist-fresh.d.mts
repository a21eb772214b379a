/** Whether a checkout's dist/ is up to date (bin/dist-fresh.mjs): `root` is the package's folder, with a trailing slash. */
export declare function distUpToDate(root: URL): boolean;
