/** Where the console API's routes live, on the console's own origin (the sign-in routes are under `/console/auth`). */
export const CONSOLE_API_BASE = '/console/v1';

/** The permission of a console route that acts for the signed-in person, in no org of the path (accepting an invitation). */
export const SIGNED_IN = 'signedIn';
