/** A member's id in the console's paths: the person's user key (`usr_` and a base64url SHA-256, tenancy/domain/members.ts). */
import type { PathParam } from '../../kernel/domain/ids';

const USER_KEY = /^usr_[A-Za-z0-9_-]{43}$/;

export const MEMBER_ID: PathParam = {
  schema: { type: 'string', pattern: USER_KEY.source, description: 'The member’s user key (`usr_` and 43 characters)' },
  read: (raw) => (USER_KEY.test(raw) ? raw : undefined),
};
