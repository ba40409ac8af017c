/**
 * Where bulk snapshot exports keep their files, and for how long: the bucket's lifecycle rule (lib/)
 * and the jobs' TTL read the same values. A leaf module: synth loads it.
 */
export const EXPORTS_PREFIX = 'exports/';
/** Jobs and their objects are kept this long. */
export const EXPORT_RETENTION_DAYS = 7;
