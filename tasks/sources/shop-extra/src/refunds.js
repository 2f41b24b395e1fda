// Refunds for returned lines: a 30-day window and a restocking fee on opened items.
export const RETURN_WINDOW_DAYS = 30;
export const RESTOCKING_FEE = 0.15;

/** Whole days between two YYYY-MM-DD days. */
export function daysBetween(from, to) {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86400000);
}

/** Refund in euros for returning `line` delivered on `delivered`, asked on `today`; 0 outside the window. */
export function refundFor(line, delivered, today) {
  if (daysBetween(delivered, today) > RETURN_WINDOW_DAYS) return 0;
  const amount = line.unitPrice * line.quantity;
  const fee = line.opened ? amount * RESTOCKING_FEE : 0;
  return Math.round((amount - fee) * 100) / 100;
}
