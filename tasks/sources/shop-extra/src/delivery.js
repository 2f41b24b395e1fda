// Delivery estimates in business days (no deliveries on Saturdays and Sundays).
const DAY_MS = 86400000;

/** Whether `date` (a Date) falls on a weekend. */
export function isWeekend(date) {
  const day = date.getUTCDay();
  return day === 0 || day === 6;
}

/** The day (YYYY-MM-DD) an order placed on `placed` arrives after `businessDays` working days. */
export function estimateDelivery(placed, businessDays) {
  let date = new Date(`${placed}T12:00:00Z`);
  let left = businessDays;
  while (left > 0) {
    date = new Date(date.getTime() + DAY_MS);
    if (!isWeekend(date)) left -= 1;
  }
  return date.toISOString().slice(0, 10);
}
