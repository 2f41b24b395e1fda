// Unit conversion for length, mass, volume and temperature, with the result rounded to a number of places.
import { roundTo } from "./round.js";

/** Size of each unit in its dimension's base unit (metre, kilogram, litre); exact by definition (NIST SP 811). */
const UNITS = {
  length: { mm: 0.001, cm: 0.01, m: 1, km: 1000, in: 0.0254, ft: 0.3048, yd: 0.9144, mi: 1609.344 },
  mass: { g: 0.001, kg: 1, t: 1000, oz: 0.028349523125, lb: 0.45359237 },
  volume: { ml: 0.001, l: 1, "fl-oz": 0.0295735295625, gal: 3.785411784 },
};

/** Temperatures as affine maps to kelvin: kelvin = (value + offset) × scale. */
const TEMPERATURE = {
  C: { offset: 273.15, scale: 1 },
  K: { offset: 0, scale: 1 },
  F: { offset: 459.67, scale: 5 / 9 },
};

/** The dimension of `unit` (length, mass, volume, temperature), or null when the unit is unknown. */
export function dimensionOf(unit) {
  if (Object.hasOwn(TEMPERATURE, unit)) return "temperature";
  for (const [dimension, units] of Object.entries(UNITS)) if (Object.hasOwn(units, unit)) return dimension;
  return null;
}

/**
 * `value` in `from` units converted to `to` units, rounded half away from zero to `places` (default 6):
 * convert(1, "mi", "km", { places: 3 }) = 1.609; convert(100, "C", "F") = 212.
 * @throws RangeError for an unknown unit, units of different dimensions, or a temperature below absolute zero.
 */
export function convert(value, from, to, { places = 6 } = {}) {
  const dimension = dimensionOf(from);
  if (dimension === null) throw new RangeError(`unknown unit "${from}"`);
  if (dimensionOf(to) === null) throw new RangeError(`unknown unit "${to}"`);
  if (dimensionOf(to) !== dimension) throw new RangeError(`cannot convert ${dimensionOf(from)} (${from}) to ${dimensionOf(to)} (${to})`);
  if (dimension !== "temperature") return roundTo((value * UNITS[dimension][from]) / UNITS[dimension][to], places);
  const kelvin = (value + TEMPERATURE[from].offset) * TEMPERATURE[from].scale;
  if (kelvin < 0) throw new RangeError(`${value} ${from} is below absolute zero`);
  return roundTo(kelvin / TEMPERATURE[to].scale - TEMPERATURE[to].offset, places);
}
