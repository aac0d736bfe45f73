import type { PlaceLookupStatus } from "./PlaceLookupStatus";
import type { PlaceView } from "./PlaceView";
import type { ZoneWarning } from "./ZoneWarning";
export type PlaceLookup = { status: PlaceLookupStatus, candidates: Array<PlaceView>, zone_warning: ZoneWarning | null, };
