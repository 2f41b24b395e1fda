// Loyalty points: one point per whole euro, tier bonuses, redemption in blocks of 100 points.
const TIERS = [
  { name: "gold", from: 1000, multiplier: 2 },
  { name: "silver", from: 250, multiplier: 1.5 },
  { name: "bronze", from: 0, multiplier: 1 },
];

/** The tier of a customer with `lifetimePoints`. */
export function tierOf(lifetimePoints) {
  return TIERS.find((tier) => lifetimePoints >= tier.from).name;
}

/** Points earned on an order of `total` euros. */
export function pointsFor(total, lifetimePoints) {
  const tier = TIERS.find((candidate) => lifetimePoints >= candidate.from);
  return Math.floor(Math.floor(total) * tier.multiplier);
}

/** Euros off for redeeming `points` (5 euros per full 100 points). */
export function redeemValue(points) {
  return Math.floor(points / 100) * 5;
}
