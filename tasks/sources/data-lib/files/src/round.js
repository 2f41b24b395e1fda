// Rounding to decimal places: half away from zero (amounts) and half to even (statistics), plus clamping.

const MAX_PLACES = 12;

function factorFor(places) {
  if (!Number.isInteger(places) || places < 0 || places > MAX_PLACES) {
    throw new RangeError(`places must be an integer from 0 to ${MAX_PLACES}, got ${places}`);
  }
  return 10 ** places;
}

/** |value| scaled by 10^places, with binary noise removed (1.005 * 100 is 100.49999999999999 in floating point). */
function scaled(value, factor) {
  return Number((Math.abs(value) * factor).toPrecision(15));
}

const withSign = (value, magnitude) => (value < 0 && magnitude !== 0 ? -magnitude : magnitude);

/**
 * Rounds half away from zero: roundTo(1.005, 2) = 1.01, roundTo(-2.5) = -3. Never returns -0.
 * @throws RangeError when places is not an integer from 0 to 12.
 */
export function roundTo(value, places = 0) {
  const factor = factorFor(places);
  return withSign(value, Math.round(scaled(value, factor)) / factor);
}

/**
 * Rounds half to even (banker's rounding, IEEE 754's default): roundHalfEven(2.5) = 2, roundHalfEven(3.5) = 4,
 * roundHalfEven(0.125, 2) = 0.12. Never returns -0.
 * @throws RangeError when places is not an integer from 0 to 12.
 */
export function roundHalfEven(value, places = 0) {
  const factor = factorFor(places);
  const exact = scaled(value, factor);
  const floor = Math.floor(exact);
  const fraction = exact - floor;
  let magnitude = floor;
  if (fraction > 0.5) magnitude = floor + 1;
  else if (fraction === 0.5 && floor % 2 === 1) magnitude = floor + 1;
  return withSign(value, magnitude / factor);
}

/**
 * `value` limited to [min, max].
 * @throws RangeError when min is above max.
 */
export function clamp(value, min, max) {
  if (min > max) throw new RangeError(`clamp: min ${min} is above max ${max}`);
  if (value < min) return min;
  return value > max ? max : value;
}
