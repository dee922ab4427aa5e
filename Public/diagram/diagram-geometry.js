// The diagram's sizes, in pixels: shared by its layout (diagram.js), its drawing (diagram-draw.js)
// and its pointer handling, so that every part computes a row's top and a lane's centre alike.
import { RADIUS } from "./diagram-glyphs.js";


/**
 * A row's height with one lane; the axis band; where the first lane's glyphs sit from the row's
 * top; how far apart further lanes are; an inner lane's height and its glyphs' half height.
 */
export const ROW = 50;
export const AXIS = 26;
export const FIRST_LANE = 33;
export const LANE = 46;
export const INNER_LANE = 24;
export const INNER_HALF = 9;
/** The least distance between two glyphs' centres. */
export const GAP = 2 * RADIUS + 4;
/** Room before time zero, so that the first marbles are not cut off by the lane's edge. */
export const PAD = RADIUS + 6;
