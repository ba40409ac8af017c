/**
 * The platform's public API addresses and versions the console's snippets name. They are the backend's
 * own constants, restated because the console bundle imports nothing of the backend; a unit test
 * (console-api-addresses.test.ts) fails when the two drift apart.
 */

/** The chat API's address under the platform's origin; the `openai` client adds `/chat/completions`. */
export const CHAT_API_BASE = '/api/v1';
export const ORG_EXPORT_BASE = '/api/v1/org';
/** The ACP version the checkout API speaks (its `API-Version` header). */
export const ACP_VERSION = '2026-04-17';
