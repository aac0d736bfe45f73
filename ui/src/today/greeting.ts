// The Today screen's greeting for the time of day: which one an hour gets. Pure (the hour is
// given), so the boundaries are tested; the words are in the i18n files (`today.greeting.*`).

export type Greeting = "morning" | "afternoon" | "evening" | "night";

/** 05–11 morning, 12–17 afternoon, 18–22 evening, 23–04 night. */
export function greetingFor(hour: number): Greeting {
  if (hour >= 5 && hour < 12) return "morning";
  if (hour >= 12 && hour < 18) return "afternoon";
  if (hour >= 18 && hour < 23) return "evening";
  return "night";
}
