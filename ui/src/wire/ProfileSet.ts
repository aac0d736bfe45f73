import type { PlaceView } from "./PlaceView";
import type { ZoneWarning } from "./ZoneWarning";
import type { JsonValue } from "./serde_json/JsonValue";
export type ProfileSet = { profile: JsonValue, place: PlaceView | null, zone_warning: ZoneWarning | null, };
