// Shipping fees: free from a threshold, weight bands, express surcharge.
import { FREE_SHIPPING_FROM } from "./config.js";

const BANDS = [
  { upTo: 2, fee: 4.9 },
  { upTo: 10, fee: 7.5 },
  { upTo: 30, fee: 12 },
];

/** Fee for a parcel of `weightKg` on an order of `total` euros; null when too heavy to ship. */
export function shippingFee(total, weightKg, express = false) {
  if (weightKg <= 0) throw new Error("weight must be positive");
  const band = BANDS.find((candidate) => weightKg <= candidate.upTo);
  if (!band) return null;
  if (total >= FREE_SHIPPING_FROM && !express) return 0;
  const fee = express ? band.fee * 2 : band.fee;
  return Math.round(fee * 100) / 100;
}

/** Parcels needed for `weightKg` when one parcel holds at most `maxKg`. */
export function parcelCount(weightKg, maxKg = 30) {
  return Math.max(1, Math.ceil(weightKg / maxKg));
}
