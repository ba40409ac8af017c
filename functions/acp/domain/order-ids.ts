/**
 * The ids an order's changes get (order ids themselves are UUIDs): a fulfillment `ful_<uuid>`, an
 * adjustment (refund, cancellation) `adj_<uuid>`. A leaf module, so the route table can declare the
 * fulfillment path parameter from the same prefix the use case mints with.
 */
export const FULFILLMENT_ID_PREFIX = 'ful_';
export const ADJUSTMENT_ID_PREFIX = 'adj_';

export const fulfillmentId = (uuid: string): string => `${FULFILLMENT_ID_PREFIX}${uuid}`;
export const adjustmentId = (uuid: string): string => `${ADJUSTMENT_ID_PREFIX}${uuid}`;
