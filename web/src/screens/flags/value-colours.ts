/** Distinct in hue and lightness, on light and dark backgrounds; values beyond these share the last. */
const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#6b7280'];

/** The colour of the value at `index` of a list (the chart's legend, a split's share bar). */
export const valueColour = (index: number): string => PALETTE[Math.min(Math.max(index, 0), PALETTE.length - 1)] as string;
