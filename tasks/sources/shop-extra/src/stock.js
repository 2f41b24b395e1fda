// Stock levels: reserving and releasing units, low-stock alerts.
export const LOW_STOCK_AT = 5;

/** Reserves `quantity` units of `item`; returns the new item or throws when not enough are free. */
export function reserve(item, quantity) {
  if (quantity <= 0) throw new Error("quantity must be positive");
  const free = item.onHand - item.reserved;
  if (quantity > free) throw new Error(`only ${free} left`);
  return { ...item, reserved: item.reserved + quantity };
}

/** Releases up to `quantity` reserved units. */
export function release(item, quantity) {
  return { ...item, reserved: Math.max(0, item.reserved - quantity) };
}

/** Whether the free units are at or below the alert level. */
export function isLow(item) {
  return item.onHand - item.reserved <= LOW_STOCK_AT;
}
