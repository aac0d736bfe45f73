// A command as the mock shell receives it: its name and its request, typed by the generated
// command list (../wire/Commands.ts). A handler switches on `cmd` and TypeScript narrows
// `request` to that command's request type, so a renamed command or request field fails the
// type check here as it does in the client.

import type { Commands } from "../wire";

export type Call = { [K in keyof Commands]: { cmd: K; request: Commands[K][0] } }[keyof Commands];

/** A handler's answer to `cmd`, checked against that command's response type. */
export const reply = <K extends keyof Commands>(_cmd: K, v: Commands[K][1] | Promise<Commands[K][1]>) => v;
