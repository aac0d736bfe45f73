export type ZoneWarning = { given: string, place_zone: string, message: string, };
