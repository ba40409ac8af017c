/** The admin API's base path: every admin route, in whichever area's route table it stands, lies under it. */
export const ADMIN_API_BASE = '/admin/v1';
