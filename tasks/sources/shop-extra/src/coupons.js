// Coupons: a percentage or a fixed amount off, with a minimum spend and an expiry day.

/** Discount in euros that `coupon` gives on `subtotal` on day `today` (YYYY-MM-DD); 0 when it does not apply. */
export function couponDiscount(coupon, subtotal, today) {
  if (!coupon) return 0;
  if (coupon.expires && today > coupon.expires) return 0;
  if (subtotal < (coupon.minSpend ?? 0)) return 0;
  const raw = coupon.kind === "percent" ? (subtotal * coupon.value) / 100 : coupon.value;
  return Math.min(subtotal, Math.round(raw * 100) / 100);
}

/** Subtotal after the coupon. */
export function applyCoupon(coupon, subtotal, today) {
  return Math.round((subtotal - couponDiscount(coupon, subtotal, today)) * 100) / 100;
}
