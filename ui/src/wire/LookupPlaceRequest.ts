export type LookupPlaceRequest = { query: string, timezone: string | null, date: string | null, };
