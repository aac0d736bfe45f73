export type PlaceLookupStatus = "found" | "ambiguous" | "not_found";
