// The five-point mood scale as the app shows it: a face beside the word (the word is what a
// screen reader reads and what the scale means; the face is decoration).

export const MOODS = [1, 2, 3, 4, 5] as const;
export type Mood = (typeof MOODS)[number];

const FACES: Record<Mood, string> = { 1: "😞", 2: "🙁", 3: "😐", 4: "🙂", 5: "😄" };

export const moodFace = (m: number): string => FACES[m as Mood] ?? "";
export const moodKey = (m: number) => `checkin.mood.${(MOODS.includes(m as Mood) ? m : 3) as Mood}` as const;
