/** The list envelope's pagination object of area A. */
export function pagination(page: { nextCursor: string; hasMore: boolean; limit: number }) {
  return { next_cursor: page.nextCursor, has_more: page.hasMore, limit: page.limit };
}
